import { describe, expect, it } from 'vitest';
import { hasContactDetails } from './contact-details';

// The examples of the server's finder (server/src/domain/contacts.rs), so both agree.
describe('contact details in a message', () => {
  it.each([
    'call 403-555-0100 please',
    'call (403) 555-0100',
    '+1 403 555 0100',
    '1-403-555-0100.',
    '4035550100',
    'texte-moi au 514 555-0123!',
    '4 0 3 5 5 5 0 1 0 0',
    'local 555-0100 ok',
    'apt 2 403 555 0100',
    '(403)\u00a0555\u20130100',
    'write to jane.doe@example.ca today',
    'jane_doe+work@mail.example.com.',
    'jane @ gmail.com',
    'jane at gmail dot com',
    'jane (at) gmail (dot) com',
    'jane[at]gmail[dot]com',
    'JANE AT GMAIL DOT COM',
    'marie arobase videotron point ca',
  ])('finds them in %j', (text) => {
    expect(hasContactDetails(text)).toBe(true);
  });

  it.each([
    'The quote is $1,250.00 for 3 hours',
    'Come on 2026-12-01 at 14:30',
    'Postal code T2P 1J9, 100 8 Ave SW',
    'I have 2 taps and 12 valves',
    'Model 12345',
    'Invoice 2026 11 28 1234 5678',
    'between 10 and 12 at 1130 2000',
    'A1B2C3D4E5F6G7H8I9J0',
    'I can be there at 5.30 tomorrow',
    'meet me at the house',
    'look at home dot depot',
    'a leak at 2 places',
    '@ the back door',
    'email me',
    '',
  ])('leaves %j alone', (text) => {
    expect(hasContactDetails(text)).toBe(false);
  });
});
