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
import { renderApp } from '@/test/render-app';
import { signIn } from '@/test/stub-server';

const service = (id: string, en: string, fr: string, active = true) =>
  create(ServiceSchema, {
    id,
    name: { en, fr },
    description: { en: `${en} work`, fr: `Travaux ${fr}` },
    active,
    etag: `${id}-e1`,
  });

function catalogueServer({ archivesOnDelete = false } = {}) {
  signIn('admin', 'a1');
  let services: Service[] = [
    service('s1', 'Plumbing', 'Plomberie'),
    service('s2', 'Roofing', 'Toiture'),
    service('s3', 'Locksmith', 'Serrurerie', false),
  ];
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
        const archived = services.filter((one) => !one.active);
        services = [
          ...request.serviceIds.map((id) => services.find((one) => one.id === id)!),
          ...archived,
        ];
        return { services };
      },
      updateService: (request) => {
        calls.update.push(request);
        const index = services.findIndex((one) => one.id === request.id);
        const next = create(ServiceSchema, { ...services[index]!, active: request.active });
        services[index] = next;
        return { service: next };
      },
      createService: (request) => {
        calls.create.push(request);
        return { service: service('s9', request.name!.en, request.name!.fr) };
      },
      deleteService: (request) => {
        calls.remove.push(request);
        return { archived: archivesOnDelete };
      },
    });
  });
  return { transport, calls };
}

describe('admin: services', () => {
  it('reorders with the up and down buttons and archives with the switch', async () => {
    const { transport, calls } = catalogueServer();
    renderApp('/admin/service-list', transport);
    const table = await screen.findByRole('table', { name: 'Services' });
    expect(within(table).getByText('Archived')).toBeVisible();
    expect(within(table).getByRole('button', { name: 'Move Plumbing up' })).toBeDisabled();

    const user = userEvent.setup();
    within(table).getByRole('button', { name: 'Move Plumbing down' }).focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Plumbing is now in position 2.')).toBeVisible();
    expect(calls.reorder).toEqual([expect.objectContaining({ serviceIds: ['s2', 's1'] })]);

    await user.click(within(table).getByRole('checkbox', { name: 'Offer Roofing' }));
    expect(await screen.findByText('Roofing is archived: no longer offered.')).toBeVisible();
    expect(calls.update[0]).toMatchObject({
      id: 's2',
      etag: 's2-e1',
      active: false,
      updateMask: { paths: ['active'] },
    });
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
    await user.upload(
      input,
      new File([new Uint8Array(1024 * 1024 + 1)], 'big.png', { type: 'image/png' }),
    );
    expect(
      await screen.findByText('This image is too large: the icon can be 1 MB at most.'),
    ).toBeVisible();
    await user.upload(input, new File([new Uint8Array(2048)], 'key.png', { type: 'image/png' }));
    expect(await screen.findByText('key.png: image/png, 2 KB')).toBeVisible();

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
});
