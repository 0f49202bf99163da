import { Text, VisuallyHidden } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import type { CodeWait } from '../code-wait';

/** How long the start of a wait stays in the announcer: time enough to be read out once. */
const START_ANNOUNCED_FOR = 5;

/**
 * The wait, counted down on screen; for screen readers, a polite word when it starts ("You
 * can ask for a new code in 24 s", for a few seconds) and when it ends ("now"), never every
 * second: the announcer is always there and its text changes at those moments only.
 */
export function CodeWaitNotice({ wait }: { wait: CodeWait }) {
  const { t } = useTranslation();
  const { secondsLeft, startSeconds } = wait;
  let announced = '';
  if (secondsLeft > 0 && startSeconds - secondsLeft < START_ANNOUNCED_FOR) {
    announced = t('phone.resendIn', { seconds: startSeconds });
  } else if (secondsLeft === 0 && startSeconds > 0) {
    announced = t('phone.resendNow');
  }
  return (
    <>
      {secondsLeft > 0 && (
        <Text color="fg.muted">{t('phone.resendIn', { seconds: secondsLeft })}</Text>
      )}
      <VisuallyHidden role="status">{announced}</VisuallyHidden>
    </>
  );
}
