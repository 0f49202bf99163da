import type { RepairRequest } from '@/gen/repairs/marketplace/v1/marketplace_pb';

/** The professional's request screens. */
export const PROFESSIONAL_REQUEST_PATHS = {
  list: '/request-list',
  view: (id: string) => `/view-request/${encodeURIComponent(id)}`,
  apply: (id: string) => `/request-apply/${encodeURIComponent(id)}`,
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
    case 'address': {
      const { line1, line2, city, province, postalCode } = request.location.value;
      return [line1, line2, `${city}, ${province} ${postalCode}`.trim()].filter(Boolean).join(', ');
    }
    default:
      return '';
  }
}
