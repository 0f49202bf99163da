import { Box, HStack, Stack, Text } from '@chakra-ui/react';
import { Languages, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PhotoGallery } from '@/components/photos/photo-gallery';
import { TextButton } from '@/components/ui/text-button';
import type { ConversationMessage } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { Language } from '@/gen/repairs/type/v1/common_pb';
import type { TranslationKey } from '@/lib/translation-key';
import { useDateTimeFormat } from '@/lib/use-date-format';
import { useLanguage } from '@/lib/use-language';

const LANGUAGE_TAGS: Partial<Record<Language, string>> = {
  [Language.EN]: 'en',
  [Language.FR]: 'fr',
};

const TRANSLATED_FROM: Partial<Record<Language, TranslationKey>> = {
  [Language.EN]: 'conversations.translatedFromEnglish',
  [Language.FR]: 'conversations.translatedFromFrench',
};

interface MessageItemProps {
  message: ConversationMessage;
  /** Written by the reader: on the right, in the brand's colour. */
  mine: boolean;
  /** Who wrote it, as the reader calls them ('You', the professional's name). */
  author: string;
  /** The reader's newest message, read by the other party. */
  seen?: boolean;
  /**
   * Said under a message whose contact details are masked: for this reader, or (the reader's
   * own) for the other party until the hire.
   */
  maskedNote?: string;
}

/**
 * One message: who wrote it and when, its text (translated into the reader's language when
 * the server gives a translation, with the original a tap away), the note that contact
 * details were masked, its photos, or 'Message deleted' once its author's account went.
 */
export function MessageItem({ message, mine, author, seen = false, maskedNote }: MessageItemProps) {
  const { t } = useTranslation();
  const language = useLanguage();
  const formatTime = useDateTimeFormat();
  const [original, setOriginal] = useState(false);
  const translated = !mine && message.textTranslation !== '' && !message.deleted;
  const showTranslation = translated && !original;
  const text = showTranslation ? message.textTranslation : message.text;
  const fromKey = TRANSLATED_FROM[message.textLanguage] ?? 'conversations.translated';
  const count = message.photos.length;

  return (
    <Stack
      as="li"
      gap="1"
      align={mine ? 'end' : 'start'}
      data-sequence={message.sequence.toString()}
    >
      <Text fontSize="xs" color="fg.muted">
        <Text as="span" fontWeight="semibold">
          {author}
        </Text>
        {' · '}
        {formatTime(message.createTime)}
      </Text>
      <Box
        maxW={{ base: '85%', md: '75%' }}
        bg={mine ? 'brand.solid' : 'bg.muted'}
        color={mine ? 'brand.contrast' : 'fg'}
        borderRadius="xl"
        borderEndEndRadius={mine ? 'sm' : 'xl'}
        borderEndStartRadius={mine ? 'xl' : 'sm'}
        px="3"
        py="2"
      >
        {message.deleted ? (
          <Text fontStyle="italic">{t('conversations.deleted')}</Text>
        ) : (
          <Stack gap="2">
            {text !== '' && (
              <Text
                whiteSpace="pre-wrap"
                overflowWrap="anywhere"
                lang={showTranslation ? language : LANGUAGE_TAGS[message.textLanguage]}
              >
                {text}
              </Text>
            )}
            {count > 0 && (
              <PhotoGallery
                photos={message.photos}
                size="sm"
                label={t('conversations.photos')}
                describe={(number, total) => t('photos.altMessage', { number, count: total })}
              />
            )}
          </Stack>
        )}
      </Box>
      {translated && (
        <HStack gap="2" fontSize="xs" color="fg.muted" wrap="wrap">
          <Languages aria-hidden size="1em" />
          <Text>{original ? t('conversations.original') : t(fromKey)}</Text>
          <TextButton size="xs" h="auto" onClick={() => setOriginal((shown) => !shown)}>
            {original ? t('conversations.showTranslation') : t('conversations.showOriginal')}
          </TextButton>
        </HStack>
      )}
      {maskedNote && (
        <HStack gap="1" fontSize="xs" color="fg.muted">
          <ShieldCheck aria-hidden size="1em" />
          <Text>{maskedNote}</Text>
        </HStack>
      )}
      {seen && (
        <Text fontSize="xs" color="fg.muted">
          {t('conversations.seen')}
        </Text>
      )}
    </Stack>
  );
}
