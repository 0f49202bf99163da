/**
 * Canadian sales tax registration numbers as ProfessionalProfile takes them: a GST/HST number
 * is 9 digits, "RT" and 4 digits (123456789RT0001); a Quebec QST number 10 digits, "TQ" and 4
 * digits (1234567890TQ0001). Spaces and lower case are accepted, and sent normalised.
 */
export const GST_HST_EXAMPLE = '123456789RT0001';
export const QST_EXAMPLE = '1234567890TQ0001';

const GST_HST = /^\d{9}RT\d{4}$/;
const QST = /^\d{10}TQ\d{4}$/;

/** A number as typed, without its spaces and in upper case ('' for none). */
export const normaliseTaxNumber = (typed: string) => typed.replace(/\s/g, '').toUpperCase();

export const isGstHstNumber = (typed: string) => GST_HST.test(normaliseTaxNumber(typed));
export const isQstNumber = (typed: string) => QST.test(normaliseTaxNumber(typed));
