import { Heading } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';

/** Sets the browser tab's title (React 19 hoists `<title>` into the head). */
export function DocumentTitle({ title }: { title: string }) {
  const { t } = useTranslation();
  return <title>{`${title} | ${t('app.name')}`}</title>;
}

/** The page's one `h1`, also used as the tab title. */
export function PageTitle({ title }: { title: string }) {
  return (
    <>
      <DocumentTitle title={title} />
      <Heading as="h1" size="2xl" color="brand.900">
        {title}
      </Heading>
    </>
  );
}
