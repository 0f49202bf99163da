/** Input rules shared by the forms; they mirror what the server accepts. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const NAME_MAX = 100;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

export const notBlank = (value: string) => value.trim() !== '';
