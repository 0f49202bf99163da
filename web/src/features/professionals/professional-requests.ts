import type { RepairRequest } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { addressText } from '@/lib/address';

/** The professional's request screens (the open requests and the job loop's). */
export const PROFESSIONAL_REQUEST_PATHS = {
  list: '/request-list',
  view: (id: string) => `/view-request/${encodeURIComponent(id)}`,
  apply: (id: string) => `/request-apply/${encodeURIComponent(id)}`,
  applied: '/applied-requests',
  active: '/professional-active-requests',
  completed: '/completed-requests',
} as const;

/**
 * Where a request is, as a professional sees it: 'Calgary, AB T2P' before they are hired
 * (city, province, postal area; never the street), the whole address once hired.
 */
export function approximatePlace(request: RepairRequest): string {
  switch (request.location.case) {
    case 'approximateLocation': {
      const { city, province, postalArea } = request.location.value;
      return `${city}, ${province} ${postalArea}`.trim();
    }
    case 'address':
      return addressText(request.location.value);
    default:
      return '';
  }
}

/** A street address on one line: '225 7 Ave SW, Calgary, AB T2P 2W3'. */
export { addressText };
