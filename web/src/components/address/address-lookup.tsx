import { Box, Input, List, Text, VisuallyHidden } from '@chakra-ui/react';
import { useEffect, useId, useState, type KeyboardEvent, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { FormField } from '@/components/ui/form-field';
import {
  AddressSuggestionKind,
  type AddressSuggestion,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import {
  SUGGEST_MAX_CHARS,
  SUGGEST_MIN_CHARS,
  useAddressSuggestions,
} from './use-address-suggestions';

/** How long typing pauses before the server is asked (one call per pause, not per key). */
const TYPING_PAUSE_MS = 250;

interface AddressLookupProps {
  label: string;
  helperText: string;
  error?: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  name: string;
  inputRef?: Ref<HTMLInputElement>;
  /** A suggestion was chosen: the form fills its address from it (`fillFromSuggestion`). */
  onChoose: (suggestion: AddressSuggestion) => void;
}

function useTypingPause(value: string): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [value]);
  return settled;
}

/**
 * The address look-up of the forms (a request's address, a professional's home base), from
 * SuggestAddresses: an ARIA 1.2 combobox. Typing lists street addresses (with a map service,
 * whose data is credited below them), postal codes, postal areas and places; Down and Up move
 * through them (the input keeps the focus and points at the active one with
 * aria-activedescendant), Enter chooses, Escape closes the list. How many suggestions there
 * are is said in a polite live region; a search that finds nothing says so to everyone, with
 * what can be typed instead.
 */
export function AddressLookup({
  label,
  helperText,
  error,
  value,
  onChange,
  onBlur,
  name,
  inputRef,
  onChoose,
}: AddressLookupProps) {
  const { t, i18n } = useTranslation();
  const listId = useId();
  const query = useTypingPause(value);
  const { data, isFetching } = useAddressSuggestions(query, i18n.language);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  // Typed since the last choice: a value the form filled in is not a search of the reader's.
  const [typed, setTyped] = useState(false);

  const searchable = value.replace(/\s/g, '').length >= SUGGEST_MIN_CHARS;
  const suggestions = searchable ? (data?.suggestions ?? []) : [];
  const expanded = open && searchable && suggestions.length > 0;
  const optionId = (index: number) => `${listId}-option-${index}`;
  // Street addresses come from OpenStreetMap's data, whose licence asks for its credit.
  const fromTheMap = suggestions.some(
    (s) => s.kind === AddressSuggestionKind.ADDRESS || s.kind === AddressSuggestionKind.STREET,
  );

  const choose = (suggestion: AddressSuggestion) => {
    onChange(suggestion.displayName);
    onChoose(suggestion);
    setTyped(false);
    setOpen(false);
    setActive(-1);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        setOpen(true);
        if (suggestions.length > 0) setActive((index) => (index + 1) % suggestions.length);
        break;
      case 'ArrowUp':
        event.preventDefault();
        setOpen(true);
        if (suggestions.length > 0) {
          setActive((index) => (index <= 0 ? suggestions.length - 1 : index - 1));
        }
        break;
      case 'Enter': {
        const suggestion = expanded ? suggestions[active] : undefined;
        // Enter chooses the active suggestion instead of sending the form.
        if (suggestion) {
          event.preventDefault();
          choose(suggestion);
        }
        break;
      }
      case 'Escape':
        if (expanded) {
          event.preventDefault();
          setOpen(false);
          setActive(-1);
        }
        break;
    }
  };

  const answered = searchable && typed && query === value && !isFetching;
  // Said to everyone, and after leaving the field: a search that finds nothing (without a map
  // service, any street address) needs the way on, what can be typed instead.
  const nothingFound = answered && data !== undefined && suggestions.length === 0;
  const count =
    answered && open && suggestions.length > 0
      ? t('addresses.lookupCount', { count: suggestions.length })
      : '';

  return (
    <Box position="relative">
      <FormField label={label} error={error} helperText={helperText}>
        <Input
          ref={inputRef}
          name={name}
          value={value}
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
          autoComplete="off"
          maxLength={SUGGEST_MAX_CHARS}
          onChange={(event) => {
            onChange(event.target.value);
            setTyped(true);
            setOpen(true);
            setActive(-1);
          }}
          onKeyDown={onKeyDown}
          onBlur={() => {
            setOpen(false);
            setActive(-1);
            onBlur?.();
          }}
        />
      </FormField>
      <Box
        hidden={!expanded}
        position="absolute"
        zIndex="dropdown"
        insetX="0"
        mt="1"
        bg="bg"
        borderWidth="1px"
        borderRadius="md"
        boxShadow="md"
      >
        <List.Root
          id={listId}
          role="listbox"
          aria-label={label}
          listStyle="none"
          maxH="64"
          overflowY="auto"
        >
          {suggestions.map((suggestion, index) => (
            <List.Item
              key={`${suggestion.kind}-${suggestion.displayName}`}
              id={optionId(index)}
              role="option"
              aria-selected={index === active}
              px="3"
              py="2"
              cursor="pointer"
              bg={index === active ? 'brand.subtle' : undefined}
              _hover={{ bg: 'bg.muted' }}
              // Keeps the focus in the input so the list does not close before the click.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(suggestion)}
            >
              <Text>{suggestion.displayName}</Text>
            </List.Item>
          ))}
        </List.Root>
        {fromTheMap ? (
          <Text fontSize="xs" color="fg.muted" px="3" py="1" borderTopWidth="1px">
            {t('addresses.mapAttribution')}
          </Text>
        ) : null}
      </Box>
      {/* One live region, always there, so what comes into it is read out. */}
      <Box aria-live="polite">
        {nothingFound ? (
          <Text fontSize="sm" color="fg.muted" mt="1">
            {t('addresses.lookupNone')}
          </Text>
        ) : (
          <VisuallyHidden>{count}</VisuallyHidden>
        )}
      </Box>
    </Box>
  );
}
