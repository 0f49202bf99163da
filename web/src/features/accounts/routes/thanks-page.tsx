import { Text } from '@chakra-ui/react';
import { CircleCheck } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { LinkButton } from '@/components/ui/links';
import { CUSTOMER_HOME_PATH, PROFESSIONAL_PROFILE_FORM_PATH } from '../account-paths';
import { AuthCard } from '../components/auth-card';
import type { MemberRole } from '../roles';

/**
 * /thanks-signup and /professional-thanks-signup: the phone is verified and the account is
 * ready. Customers go on to their first request, professionals to their profile.
 */
export function ThanksPage({ role }: { role: MemberRole }) {
  const { t } = useTranslation();
  const customer = role === 'customer';
  return (
    <AuthCard title={t(customer ? 'pages.thanksSignup' : 'pages.professionalThanksSignup')}>
      <CircleCheck size={48} color="var(--chakra-colors-green-600)" aria-hidden />
      <Text fontSize="lg">{t(customer ? 'thanks.customer' : 'thanks.professional')}</Text>
      <LinkButton
        to={customer ? CUSTOMER_HOME_PATH : PROFESSIONAL_PROFILE_FORM_PATH}
        colorPalette="brand"
      >
        {t(customer ? 'thanks.customerNext' : 'thanks.professionalNext')}
      </LinkButton>
    </AuthCard>
  );
}
