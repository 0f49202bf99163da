import { describe, expect, it } from 'vitest';
import { Experience, SmsUpdates } from '@/gen/repairs/accounts/v1/accounts_pb';
import { PROFESSIONAL_ID, TEST_SERVICES, professional } from '@/test/stub-server';
import { profileRequest, profileValues } from './profile-values';

describe('profile form values', () => {
  it('turns a saved profile into form values and back into the same request', () => {
    const values = profileValues(professional(), 'en');
    expect(values).toMatchObject({
      availableDays: ['1', '2', '3'],
      minimumFee: '30.00',
      radiusKm: '50',
      experience: String(Experience.EXPERIENCE_5_TO_10),
      province: 'AB',
    });
    const request = profileRequest(
      PROFESSIONAL_ID,
      {
        ...values,
        postalCode: 't2p1j9',
        minimumFee: '45.5',
      },
      'en',
    );
    expect(request).toMatchObject({
      id: PROFESSIONAL_ID,
      smsUpdates: SmsUpdates.YES,
      profile: {
        homeBase: { postalCode: 'T2P 1J9', country: 'CA', province: 'AB' },
        availableDays: [1, 2, 3],
        radiusKm: 50,
        serviceIds: [TEST_SERVICES[0]!.id],
        experience: Experience.EXPERIENCE_5_TO_10,
        minimumFee: { amountCents: 4550n, currency: 'CAD' },
      },
    });
  });

  it('writes and reads the minimum fee the French way in French', () => {
    const values = profileValues(professional(), 'fr');
    expect(values.minimumFee).toBe('30,00');
    const request = profileRequest(PROFESSIONAL_ID, { ...values, minimumFee: '1 045,50' }, 'fr');
    expect(request.profile?.minimumFee).toEqual({ amountCents: 104550n, currency: 'CAD' });
  });

  it('fills what was vetted as proposed while the change awaits review, the rest as saved', () => {
    const values = profileValues(
      professional({
        pendingChange: {
          proposed: {
            name: 'Paule Pro-Roy',
            registeredAddress: '200 Centre St S, Calgary',
            serviceIds: [TEST_SERVICES[0]!.id, TEST_SERVICES[1]!.id],
            qualification: 'Master plumber',
            experience: Experience.EXPERIENCE_10_TO_15,
          },
          revision: 2,
        },
      }),
      'en',
    );
    expect(values).toMatchObject({
      name: 'Paule Pro-Roy',
      registeredAddress: '200 Centre St S, Calgary',
      serviceIds: [TEST_SERVICES[0]!.id, TEST_SERVICES[1]!.id],
      qualification: 'Master plumber',
      experience: String(Experience.EXPERIENCE_10_TO_15),
      availableFrom: '08:00',
      minimumFee: '30.00',
    });
  });

  it('starts a new profile with the defaults of the specs', () => {
    const values = profileValues(professional({ profile: undefined }), 'en');
    expect(values).toMatchObject({
      province: 'AB',
      availableFrom: '00:00',
      availableTo: '23:59',
      availableDays: [],
      experience: '',
    });
  });

  it('sends the tax numbers without spaces, in upper case, and none as empty', () => {
    const values = profileValues(professional(), 'en');
    expect(values).toMatchObject({ gstHstNumber: '', qstNumber: '' });
    const request = profileRequest(
      PROFESSIONAL_ID,
      { ...values, gstHstNumber: ' 123 456 789 rt 0001', qstNumber: '1234567890tq0001 ' },
      'en',
    );
    expect(request.profile).toMatchObject({
      gstHstNumber: '123456789RT0001',
      qstNumber: '1234567890TQ0001',
    });
  });
});
