import { create } from '@bufbuild/protobuf';
import { createRouterTransport } from '@connectrpc/connect';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  ContentService,
  ServiceSchema,
  type CreateServiceRequest,
  type DeleteServiceRequest,
  type ReorderServicesRequest,
  type Service,
  type UpdateServiceRequest,
} from '@/gen/repairs/content/v1/content_pb';
import { LocalizedTextSchema } from '@/gen/repairs/type/v1/common_pb';
import { renderApp } from '@/test/render-app';
import { Code, rpcError, signIn } from '@/test/stub-server';

const service = (id: string, en: string, fr: string, active = true) =>
  create(ServiceSchema, {
    id,
    name: { en, fr },
    description: { en: `${en} work`, fr: `Travaux ${fr}` },
    active,
    etag: `${id}-e1`,
  });

/** What the stub refuses the next create or update with, when set. */
type Refusal = ReturnType<typeof rpcError> | null;

function catalogueServer({ archivesOnDelete = false } = {}) {
  signIn('admin', 'a1');
  let services: Service[] = [
    service('s1', 'Plumbing', 'Plomberie'),
    service('s2', 'Roofing', 'Toiture'),
    service('s3', 'Locksmith', 'Serrurerie', false),
  ];
  let refusal: Refusal = null;
  const refuse = () => {
    const next = refusal;
    refusal = null;
    if (next) throw next;
  };
  const calls = {
    reorder: [] as ReorderServicesRequest[],
    update: [] as UpdateServiceRequest[],
    create: [] as CreateServiceRequest[],
    remove: [] as DeleteServiceRequest[],
  };
  const transport = createRouterTransport(({ service: serve }) => {
    serve(ContentService, {
      listServices: ({ includeArchived }) => ({
        services: services.filter((one) => includeArchived || one.active),
      }),
      getService: ({ id }) => ({ service: services.find((one) => one.id === id) }),
      reorderServices: (request) => {
        calls.reorder.push(request);
        refuse();
        const archived = services.filter((one) => !one.active);
        services = [
          ...request.serviceIds.map((id) => services.find((one) => one.id === id)!),
          ...archived,
        ];
        return { services };
      },
      updateService: (request) => {
        calls.update.push(request);
        refuse();
        const index = services.findIndex((one) => one.id === request.id);
        const before = services[index]!;
        if (request.etag && request.etag !== before.etag) {
          throw rpcError(Code.FailedPrecondition, 'ETAG_MISMATCH');
        }
        const paths = request.updateMask?.paths ?? [];
        const next = create(ServiceSchema, {
          ...before,
          name: create(LocalizedTextSchema, {
            en: paths.includes('name.en') ? request.name!.en : before.name!.en,
            fr: paths.includes('name.fr') ? request.name!.fr : before.name!.fr,
          }),
          active: paths.includes('active') ? request.active : before.active,
          etag: `${before.id}-e${Number(before.etag.split('-e')[1]) + 1}`,
        });
        services[index] = next;
        return { service: next };
      },
      createService: (request) => {
        calls.create.push(request);
        refuse();
        return { service: service('s9', request.name!.en, request.name!.fr) };
      },
      deleteService: (request) => {
        calls.remove.push(request);
        return { archived: archivesOnDelete };
      },
    });
  });
  /** Someone else saves the service `id` meanwhile, with the French name `fr`. */
  const changeElsewhere = (id: string, fr: string) => {
    const index = services.findIndex((one) => one.id === id);
    const before = services[index]!;
    services[index] = create(ServiceSchema, {
      ...before,
      name: create(LocalizedTextSchema, { en: before.name!.en, fr }),
      etag: `${id}-e9`,
    });
  };
  return { transport, calls, changeElsewhere, refuseNext: (next: Refusal) => (refusal = next) };
}

const png = (bytes: number, name = 'key.png') =>
  new File([new Uint8Array(bytes)], name, { type: 'image/png' });

describe('admin: services', () => {
  it('reorders with the up and down buttons, keeping the focus on the service moved', async () => {
    const { transport, calls } = catalogueServer();
    renderApp('/admin/service-list', transport);
    const table = await screen.findByRole('table', { name: 'Services' });
    expect(within(table).getByRole('button', { name: 'Move Plumbing up' })).toBeDisabled();

    const user = userEvent.setup();
    within(table).getByRole('button', { name: 'Move Plumbing down' }).focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Plumbing is now in position 2.')).toBeVisible();
    expect(calls.reorder).toEqual([expect.objectContaining({ serviceIds: ['s2', 's1'] })]);
    // Last now, Plumbing cannot go further down: the focus is on its other button.
    await waitFor(() =>
      expect(within(table).getByRole('button', { name: 'Move Plumbing up' })).toHaveFocus(),
    );
    expect(within(table).getAllByRole('row')[2]).toHaveTextContent('Plumbing');

    await user.keyboard('{Enter}');
    expect(await screen.findByText('Plumbing is now in position 1.')).toBeVisible();
    expect(calls.reorder.at(-1)).toMatchObject({ serviceIds: ['s1', 's2'] });
    await waitFor(() =>
      expect(within(table).getByRole('button', { name: 'Move Plumbing down' })).toHaveFocus(),
    );
  });

  it('lists the archived services apart, to archive one and bring one back', async () => {
    const { transport, calls } = catalogueServer();
    renderApp('/admin/service-list', transport);
    const offered = await screen.findByRole('table', { name: 'Services' });
    const archived = screen.getByRole('table', { name: 'Archived services' });
    expect(within(offered).queryByText('Locksmith')).not.toBeInTheDocument();
    expect(within(archived).getByText('Locksmith')).toBeVisible();

    const user = userEvent.setup();
    await user.click(within(offered).getByRole('button', { name: 'Archive Roofing' }));
    expect(await screen.findByText('Roofing is archived: no longer offered.')).toBeVisible();
    expect(calls.update[0]).toMatchObject({
      id: 's2',
      etag: 's2-e1',
      active: false,
      updateMask: { paths: ['active'] },
    });
    await within(archived).findByText('Roofing');

    await user.click(within(archived).getByRole('button', { name: 'Bring back Locksmith' }));
    expect(await screen.findByText('Locksmith is offered again.')).toBeVisible();
    expect(calls.update[1]).toMatchObject({ id: 's3', active: true });
    await within(offered).findByText('Locksmith');
  });

  it('adds a service with its icon, showing the file and refusing one too large', async () => {
    const { transport, calls } = catalogueServer();
    const { router } = renderApp('/admin/add-service', transport);
    await screen.findByRole('heading', { level: 1, name: 'Add a service' });
    const user = userEvent.setup();

    await user.click(screen.getByRole('button', { name: 'Add the service' }));
    expect(await screen.findByText('Please give the name in English.')).toBeVisible();
    expect(screen.getByText('Please give the name in French.')).toBeVisible();

    const input = screen.getByLabelText('Icon');
    await user.upload(input, png(1024 * 1024 + 1, 'big.png'));
    expect(
      await screen.findByText('This image is too large: the icon can be 1 MB at most.'),
    ).toBeVisible();
    expect(screen.queryByRole('img', { name: 'Preview of the new icon' })).not.toBeInTheDocument();
    await user.upload(input, png(2048));
    expect(await screen.findByText('key.png: image/png, 2 KB')).toBeVisible();
    expect(screen.getByRole('img', { name: 'Preview of the new icon' })).toHaveAttribute(
      'src',
      expect.stringMatching(/^blob:/),
    );

    await user.type(screen.getByRole('textbox', { name: /Name in English/ }), 'Locks');
    await user.type(screen.getByRole('textbox', { name: /Name in French/ }), 'Serrures');
    await user.click(screen.getByRole('button', { name: 'Add the service' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/service-list'));
    expect(calls.create[0]).toMatchObject({
      name: { en: 'Locks', fr: 'Serrures' },
      iconContentType: 'image/png',
    });
    expect(calls.create[0]!.icon).toHaveLength(2048);
  });

  it('edits only what changed, with the etag read', async () => {
    const { transport, calls } = catalogueServer();
    renderApp('/admin/edit-service/s1', transport);
    const french = await screen.findByRole('textbox', { name: /Name in French/ });
    expect(french).toHaveValue('Plomberie');
    const user = userEvent.setup();
    await user.clear(french);
    await user.type(french, 'Services de plomberie');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(calls.update).toHaveLength(1));
    expect(calls.update[0]).toMatchObject({
      id: 's1',
      etag: 's1-e1',
      name: { fr: 'Services de plomberie' },
      updateMask: { paths: ['name.fr'] },
    });
  });

  it('says a service in use is archived rather than deleted', async () => {
    const { transport, calls } = catalogueServer({ archivesOnDelete: true });
    const { router } = renderApp('/admin/delete-service/s1', transport);
    expect(await screen.findByText('Do you want to delete the service Plumbing?')).toBeVisible();
    expect(screen.getByText(/One that is in use is archived instead/)).toBeVisible();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Delete' }));
    expect(
      await screen.findByText('Plumbing is in use, so it is archived rather than deleted.'),
    ).toBeVisible();
    expect(router.state.location.pathname).toBe('/admin/service-list');
    expect(calls.remove).toEqual([expect.objectContaining({ id: 's1', etag: 's1-e1' })]);
  });

  it("shows the server's refusals of the icon and of a name beside them", async () => {
    const server = catalogueServer();
    renderApp('/admin/add-service', server.transport);
    const user = userEvent.setup();
    await user.type(await screen.findByRole('textbox', { name: /Name in English/ }), 'Locks');
    await user.type(screen.getByRole('textbox', { name: /Name in French/ }), 'plomberie ');
    const icon = screen.getByLabelText('Icon');
    await user.upload(icon, png(2048));
    const add = screen.getByRole('button', { name: 'Add the service' });

    // The bytes are not what the type says.
    server.refuseNext(rpcError(Code.InvalidArgument, 'FILE_TYPE_MISMATCH', { icon: 'not a png' }));
    await user.click(add);
    expect(
      await screen.findByText("This file's content does not match its type. Choose another file."),
    ).toBeVisible();
    expect(icon).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    // Too large for the server (it says so without naming the field).
    server.refuseNext(rpcError(Code.ResourceExhausted, 'FILE_TOO_LARGE'));
    await user.click(add);
    expect(
      await screen.findByText('This image is too large: the icon can be 1 MB at most.'),
    ).toBeVisible();

    // The French name is an active service's (whatever its case and spaces).
    server.refuseNext(rpcError(Code.AlreadyExists, 'SERVICE_NAME_TAKEN'));
    await user.click(add);
    const french = screen.getByRole('textbox', { name: /Name in French/ });
    await waitFor(() => expect(french).toHaveAttribute('aria-invalid', 'true'));
    expect(screen.getByText('Another service already has this name.')).toBeVisible();
    expect(screen.getByRole('textbox', { name: /Name in English/ })).not.toHaveAttribute(
      'aria-invalid',
      'true',
    );
    expect(french).toHaveFocus();
    expect(server.calls.create).toHaveLength(3);
  });

  it('refuses a stale edit and loads the latest version, keeping what was typed', async () => {
    const server = catalogueServer();
    const { router } = renderApp('/admin/edit-service/s1', server.transport);
    const english = await screen.findByRole('textbox', { name: /Name in English/ });
    server.changeElsewhere('s1', 'Plomberie générale');

    const user = userEvent.setup();
    await user.clear(english);
    await user.type(english, 'Plumbing and heating');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Someone else saved this service after you opened it.');
    expect(server.calls.update[0]).toMatchObject({ etag: 's1-e1' });

    await user.click(within(alert).getByRole('button', { name: 'Load the latest version' }));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    expect(screen.getByRole('textbox', { name: /Name in French/ })).toHaveValue(
      'Plomberie générale',
    );
    expect(english).toHaveValue('Plumbing and heating');

    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/service-list'));
    expect(server.calls.update[1]).toMatchObject({
      etag: 's1-e9',
      name: { en: 'Plumbing and heating' },
      updateMask: { paths: ['name.en'] },
    });
  });

  it('shows the latest list when a move or an archive was refused as stale', async () => {
    const server = catalogueServer();
    renderApp('/admin/service-list', server.transport);
    const table = await screen.findByRole('table', { name: 'Services' });
    server.changeElsewhere('s2', 'Toitures et gouttières');
    server.refuseNext(rpcError(Code.InvalidArgument, 'SERVICE_ORDER_INCOMPLETE'));

    const user = userEvent.setup();
    await user.click(within(table).getByRole('button', { name: 'Move Roofing up' }));
    expect(
      await screen.findByText(
        'The list of services changed meanwhile: it now shows the latest version. Please try again.',
      ),
    ).toBeVisible();
    expect(await within(table).findByText('Toitures et gouttières')).toBeVisible();

    server.refuseNext(rpcError(Code.FailedPrecondition, 'ETAG_MISMATCH'));
    await user.click(within(table).getByRole('button', { name: 'Archive Plumbing' }));
    await waitFor(() =>
      expect(screen.getAllByText(/The list of services changed meanwhile/)).toHaveLength(2),
    );
  });
});
