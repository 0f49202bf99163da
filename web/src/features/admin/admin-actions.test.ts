import { describe, expect, it } from 'vitest';
import { ProfessionalState } from '@/gen/repairs/accounts/v1/accounts_pb';
import { adminActionsFor } from './admin-actions';

describe('admin buttons by state', () => {
  it.each([
    [ProfessionalState.APPROVED, ['deny', 'delete']],
    [ProfessionalState.DENIED, ['approve', 'delete']],
    [ProfessionalState.WAITING_FOR_APPROVAL, ['approve', 'deny', 'delete']],
    [ProfessionalState.PROFILE_UPDATED, ['approve', 'deny', 'delete']],
  ])('state %i shows %j', (state, actions) => {
    expect(adminActionsFor(state)).toEqual(actions);
  });
});
