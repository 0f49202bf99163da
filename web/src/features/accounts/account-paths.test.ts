import { describe, expect, it } from 'vitest';
import { ProfessionalState } from '@/gen/repairs/accounts/v1/accounts_pb';
import { professional } from '@/test/stub-server';
import { customerLandingPath, professionalLandingPath } from './account-paths';

describe('where an account goes after signing in', () => {
  it('sends a customer to the phone step until the phone is verified', () => {
    expect(customerLandingPath({ id: 'c1', phoneVerified: false })).toBe('/phone-otp/c1');
    expect(customerLandingPath({ id: 'c1', phoneVerified: true })).toBe('/create-request');
  });

  it.each([
    ['phone not verified', { phoneVerified: false }, '/professional-phone-otp/p1'],
    ['no profile yet', { profile: undefined }, '/update-professional-profile'],
    [
      'waiting (legacy 0)',
      { state: ProfessionalState.WAITING_FOR_APPROVAL },
      '/waiting-for-approval',
    ],
    ['approved (legacy 1)', { state: ProfessionalState.APPROVED }, '/professional-dashboard'],
    ['denied (legacy 2)', { state: ProfessionalState.DENIED }, '/disapproved-professional'],
    [
      'profile updated (legacy 3)',
      { state: ProfessionalState.PROFILE_UPDATED },
      '/waiting-for-profile-review',
    ],
  ] as const)('sends a professional with %s to %s', (_case, fields, path) => {
    expect(professionalLandingPath(professional({ id: 'p1', ...fields }))).toBe(path);
  });
});
