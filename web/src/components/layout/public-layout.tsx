import { Container } from '@chakra-ui/react';
import { Outlet } from 'react-router';
import { MainContent, PageShell } from './page-shell';

/** Layout of the landing pages: their sections span the full width. */
export function FullWidthLayout() {
  return (
    <PageShell>
      <MainContent>
        <Outlet />
      </MainContent>
    </PageShell>
  );
}

/** Layout of the other public pages (sign-in, contact, ...): one centred column. */
export function PublicLayout() {
  return (
    <PageShell>
      <MainContent>
        <Container maxW="4xl" py={{ base: '8', md: '12' }}>
          <Outlet />
        </Container>
      </MainContent>
    </PageShell>
  );
}
