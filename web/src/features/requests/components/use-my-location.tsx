import { Button, Stack, Text } from '@chakra-ui/react';
import { useMutation } from '@connectrpc/connect-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  MarketplaceService,
  type ReverseGeocodeResponse,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { reasonMessageKey } from '@/lib/error-reasons';
import { readRpcError } from '@/lib/rpc-error';

interface UseMyLocationProps {
  /** The address found at the phone's position (ReverseGeocode). */
  onFound: (found: ReverseGeocodeResponse) => void;
}

/**
 * "Use my location": asks the browser for the position only when pressed, then the server
 * for the address there; what goes wrong (no permission, no address near), or a place found
 * without its street, is said below it.
 */
export function UseMyLocation({ onFound }: UseMyLocationProps) {
  const { t, i18n } = useTranslation();
  const reverse = useMutation(MarketplaceService.method.reverseGeocode);
  const [locating, setLocating] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [noStreet, setNoStreet] = useState(false);

  const found = async (position: GeolocationPosition) => {
    try {
      const answer = await reverse.mutateAsync({
        latitude: position.coords.latitude,
        longitude: position.coords.longitude,
        language: i18n.language.startsWith('fr') ? 'fr' : 'en',
      });
      onFound(answer);
      // Without street data the server places only the nearest postal code and its town.
      setNoStreet(answer.address !== undefined && answer.address.line1 === '');
    } catch (error) {
      const { reason, message } = readRpcError(error);
      const key = reasonMessageKey(reason);
      setProblem(key ? t(key) : message);
    } finally {
      setLocating(false);
    }
  };

  const locate = () => {
    setProblem(null);
    setNoStreet(false);
    if (!('geolocation' in navigator)) {
      setProblem(t('requests.location.unavailable'));
      return;
    }
    setLocating(true);
    navigator.geolocation.getCurrentPosition(
      (position) => void found(position),
      () => {
        setLocating(false);
        setProblem(t('requests.location.refused'));
      },
      { enableHighAccuracy: true, timeout: 15_000 },
    );
  };

  return (
    <Stack gap="1" align="start">
      <Button
        type="button"
        variant="outline"
        size="sm"
        minH="11"
        onClick={locate}
        loading={locating}
      >
        {t('requests.location.use')}
      </Button>
      {noStreet && (
        <Text role="status" fontSize="sm">
          {t('requests.location.noStreet')}
        </Text>
      )}
      {problem ? (
        <Text role="alert" color="fg.error" fontSize="sm">
          {problem}
        </Text>
      ) : null}
    </Stack>
  );
}
