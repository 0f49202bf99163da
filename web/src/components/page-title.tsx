import { Heading } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { titleFocusProps, useTitleFocus } from '@/lib/route-focus';

/** Sets the browser tab's title (React 19 hoists `<title>` into the head). */
export function DocumentTitle({ title }: { title: string }) {
  const { t } = useTranslation();
  return <title>{`${title} | ${t('app.name')}`}</title>;
}

/** The page's one `h1`, also used as the tab title; it takes the focus after a navigation. */
export function PageTitle({ title }: { title: string }) {
  const ref = useTitleFocus<HTMLHeadingElement>();
  return (
    <>
      <DocumentTitle title={title} />
      <Heading ref={ref} as="h1" size="2xl" color="brand.900" {...titleFocusProps}>
        {title}
      </Heading>
    </>
  );
}
