import { Center, SimpleGrid, Stat } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { LinkButton } from '@/components/ui/links';
import { Section } from './section';

const FIGURES = ['professionals', 'emergencies', 'satisfaction'] as const;

interface FiguresSectionProps {
  heading: string;
  description: string;
  link: { label: string; to: string };
}

/**
 * The satisfaction section (300+ verified professionals, 3500 emergencies resolved, 98%
 * satisfaction), as a description list whose figures show above their labels.
 */
export function FiguresSection({ heading, description, link }: FiguresSectionProps) {
  const { t } = useTranslation();
  return (
    <Section heading={heading} description={description} bg="brand.subtle">
      <SimpleGrid as="dl" aria-label={t('home.figures.label')} columns={{ base: 1, md: 3 }} gap="5">
        {FIGURES.map((figure) => (
          // A label and value group of the list (a <div> in the <dl>, not a <dl> of its own).
          <Stat.Root
            as="div"
            key={figure}
            bg="bg"
            borderRadius="xl"
            borderWidth="1px"
            p="8"
            alignItems="center"
            textAlign="center"
            flexDirection="column-reverse"
            gap="2"
            data-testid={`figure-${figure}`}
          >
            <Stat.Label asChild fontSize="lg" color="fg">
              <dt>{t(`home.figures.${figure}.label`)}</dt>
            </Stat.Label>
            <Stat.ValueText asChild fontSize="5xl" fontWeight="extrabold" color="accent.fg">
              <dd>{t(`home.figures.${figure}.value`)}</dd>
            </Stat.ValueText>
          </Stat.Root>
        ))}
      </SimpleGrid>
      <Center mt="10">
        <LinkButton to={link.to} size="lg" colorPalette="brand">
          {link.label}
        </LinkButton>
      </Center>
    </Section>
  );
}
