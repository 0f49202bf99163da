import { createRouterTransport } from '@connectrpc/connect';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderInApp } from '@/test/render-app';
import { UnreadBadge } from './unread-badge';

const transport = createRouterTransport(() => {});

describe('the unread badge', () => {
  it('shows nothing when nothing is unread', () => {
    const { container } = renderInApp(<UnreadBadge count={0} />, transport);
    expect(container).toBeEmptyDOMElement();
  });

  it('shows the figure, and says what it counts to screen readers', () => {
    renderInApp(<UnreadBadge count={3} />, transport);
    const badge = screen.getByTestId('unread-badge');
    expect(badge).toHaveTextContent('3');
    expect(badge).toHaveAttribute('aria-hidden', 'true');
    expect(screen.getByText('3 unread messages')).toBeInTheDocument();
  });

  it('keeps to 99+ on screen, the whole number for screen readers, in French too', () => {
    renderInApp(<UnreadBadge count={1} />, transport, 'fr');
    expect(screen.getByText('1 message non lu')).toBeInTheDocument();
    renderInApp(<UnreadBadge count={150} />, transport, 'fr');
    expect(screen.getAllByTestId('unread-badge')[1]).toHaveTextContent('99+');
    expect(screen.getByText('150 messages non lus')).toBeInTheDocument();
  });
});
