import { HStack, Spinner, Stack, Switch, Text, VisuallyHidden } from '@chakra-ui/react';
import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { FormAlert } from '@/components/ui/form-alert';
import { browserPushDevice, type PushDevice } from '@/lib/web-push';
import { useDeviceAlerts, type AlertsRole } from './use-device-alerts';

interface DeviceAlertsSwitchProps {
  role: AlertsRole;
  /** This browser's push; tests pass a stand-in. */
  device?: PushDevice;
}

/**
 * "Alert me on this device": Web Push notifications on this browser for what the server
 * would email the account. The browser asks for its permission only once the switch is
 * pressed; a browser without push, or with notifications blocked, says so and how to allow them.
 */
export function DeviceAlertsSwitch({ role, device = browserPushDevice }: DeviceAlertsSwitchProps) {
  const { t } = useTranslation();
  const { status, busy, problem, done, turn, checked } = useDeviceAlerts(role, device);
  const helpId = useId();
  const waiting = busy || status === 'checking';
  // The box the browser ticked when pressed must say what the switch is once the change is
  // done or refused (screen readers read it), even when both came before the switch's own sync.
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (input.current) input.current.checked = checked;
  });
  return (
    <Stack gap="2">
      <HStack gap="3">
        <Switch.Root
          checked={checked}
          disabled={waiting || status === 'unsupported' || status === 'denied'}
          onCheckedChange={(details) => turn(details.checked)}
          colorPalette="brand"
        >
          <Switch.HiddenInput ref={input} aria-describedby={helpId} aria-busy={waiting} />
          <Switch.Control>
            <Switch.Thumb />
          </Switch.Control>
          <Switch.Label>{t('deviceAlerts.label')}</Switch.Label>
        </Switch.Root>
        {waiting && (
          <Spinner size="sm" color="brand.solid" aria-label={t('deviceAlerts.checking')} />
        )}
      </HStack>
      <Text id={helpId} textStyle="sm" color="fg.muted">
        {t(role === 'professional' ? 'deviceAlerts.helpProfessional' : 'deviceAlerts.helpCustomer')}
      </Text>
      {status === 'unsupported' && (
        <FormAlert status="info" title={t('deviceAlerts.unsupported')} />
      )}
      {status === 'denied' && <FormAlert status="warning" title={t('deviceAlerts.denied')} />}
      {problem?.kind === 'rpc' && <RpcErrorAlert error={problem.error} />}
      {problem?.kind === 'failed' && <FormAlert title={t('deviceAlerts.failed')} />}
      {problem?.kind === 'dismissed' && (
        <FormAlert status="info" title={t('deviceAlerts.dismissed')} />
      )}
      <VisuallyHidden role="status">
        {done && t(done === 'on' ? 'deviceAlerts.turnedOn' : 'deviceAlerts.turnedOff')}
      </VisuallyHidden>
    </Stack>
  );
}
