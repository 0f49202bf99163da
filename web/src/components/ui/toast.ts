import { createToaster } from '@chakra-ui/react';

/** Call `toaster.create({ type: 'success', title })` anywhere; never `alert()`. */
export const toaster = createToaster({ placement: 'top-end', pauseOnPageIdle: true });
