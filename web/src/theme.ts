import {
  createSystem,
  defaultConfig,
  defineConfig,
  type SystemStyleObject,
} from '@chakra-ui/react';
import {
  checkboxAnatomy,
  menuAnatomy,
  nativeSelectAnatomy,
  radioGroupAnatomy,
  segmentGroupAnatomy,
  switchAnatomy,
} from '@chakra-ui/react/anatomy';

/**
 * The one theme of the app: a deep, trustworthy blue (`brand`) with a warm orange accent
 * (`accent`) for calls to action. Both palettes define the semantic tokens Chakra's
 * `colorPalette` prop needs (solid, contrast, fg, muted, subtle, emphasized, focusRing).
 * Text colours on white and white on the solid shades keep at least 4.5:1 contrast.
 */
const fallbackFonts = `-apple-system, BlinkMacSystemFont, "Segoe UI", Helvetica, Arial, sans-serif`;

const palette = (name: 'brand' | 'accent', shades: { solid: number; fg: number }) => ({
  solid: { value: `{colors.${name}.${shades.solid}}` },
  contrast: { value: 'white' },
  fg: { value: `{colors.${name}.${shades.fg}}` },
  muted: { value: `{colors.${name}.100}` },
  subtle: { value: `{colors.${name}.50}` },
  emphasized: { value: `{colors.${name}.200}` },
  focusRing: { value: `{colors.${name}.500}` },
});

/**
 * A finger-sized target: below `md` (a phone) whatever a finger presses is at least 44 x 44
 * CSS px (WCAG 2.5.5); from `md` up, used with a pointer, a control keeps its `wide` size.
 */
export const fingerSized = (wide: string) => ({ base: '11', md: wide });

/**
 * The least size of a target of its own (a back link, a name in a list, a phone number, a
 * checkbox's row), not a link inside a sentence: 44 x 44 px on a phone, its own size from
 * `md` up.
 */
export const FINGER_TARGET = { minH: fingerSized('auto'), minW: fingerSized('auto') } as const;

/** A slot recipe whose `part` (a checkbox's row, a menu's item) is a finger-sized target. */
const fingerSizedPart = (anatomy: { keys: () => string[] }, part: string) => ({
  slots: anatomy.keys(),
  base: { [part]: FINGER_TARGET },
});

/** Chakra's heights of buttons, fields and selects by size, below its 44 px `lg`. */
const SMALL_SIZES = { '2xs': '6', xs: '8', sm: '9', md: '10' } as const;

/** For each size under 44 px: its styles, made of its height on a wide screen. */
const bySmallSize = <Styles extends SystemStyleObject | Record<string, SystemStyleObject>>(
  styles: (wide: string) => Styles,
) => Object.fromEntries(Object.entries(SMALL_SIZES).map(([size, wide]) => [size, styles(wide)]));

/** A height a recipe keeps in a variable (fields, selects): 44 px on a phone. */
const fingerHeight = (wide: string) => ({ base: 'sizes.11', md: `sizes.${wide}` });

const config = defineConfig({
  globalCss: {
    html: { scrollBehavior: 'smooth' },
    body: { bg: 'bg', color: 'fg' },
    // A clearly visible keyboard focus on every link and control.
    'a:focus-visible, button:focus-visible, [tabindex]:focus-visible': {
      outline: '3px solid',
      outlineColor: 'accent.500',
      outlineOffset: '2px',
    },
    // Text fields draw their focus ring inside the border: 2px more than the 1px border, so
    // a focused field (also a refused one, whose ring is red) stands out from the others.
    'input, select, textarea': { '--focus-ring-width': '2px' },
  },
  theme: {
    // Finger-sized targets on a phone: buttons of every size (link-buttons, icon and close
    // buttons too), checkbox, radio and switch rows (the whole row is what is pressed),
    // segmented choices, selects and menu items; text fields as tall as the selects and
    // buttons beside them.
    recipes: {
      button: {
        variants: {
          size: bySmallSize((wide) => ({ minW: fingerSized(wide), minH: fingerSized(wide) })),
        },
      },
      input: {
        variants: { size: bySmallSize((wide) => ({ '--input-height': fingerHeight(wide) })) },
      },
    },
    slotRecipes: {
      checkbox: fingerSizedPart(checkboxAnatomy, 'root'),
      radioGroup: fingerSizedPart(radioGroupAnatomy, 'item'),
      switch: fingerSizedPart(switchAnatomy, 'root'),
      segmentGroup: fingerSizedPart(segmentGroupAnatomy, 'item'),
      menu: fingerSizedPart(menuAnatomy, 'item'),
      nativeSelect: {
        slots: nativeSelectAnatomy.keys(),
        variants: {
          size: bySmallSize((wide) => ({ root: { '--select-field-height': fingerHeight(wide) } })),
        },
      },
    },
    tokens: {
      fonts: {
        heading: { value: `'Inter Variable', Inter, ${fallbackFonts}` },
        body: { value: `'Inter Variable', Inter, ${fallbackFonts}` },
      },
      colors: {
        brand: {
          50: { value: '#eef4ff' },
          100: { value: '#dae6ff' },
          200: { value: '#bdd2fe' },
          300: { value: '#8fb3fb' },
          400: { value: '#5b89f6' },
          500: { value: '#3663ef' },
          600: { value: '#2046d9' },
          700: { value: '#1a37b0' },
          800: { value: '#19308b' },
          900: { value: '#162a6b' },
          950: { value: '#0f1a41' },
        },
        accent: {
          50: { value: '#fff6ed' },
          100: { value: '#ffebd4' },
          200: { value: '#ffd2a8' },
          300: { value: '#ffb170' },
          400: { value: '#ff8737' },
          500: { value: '#fd6611' },
          600: { value: '#ee4b07' },
          700: { value: '#c43608' },
          800: { value: '#9c2c0f' },
          900: { value: '#7e2710' },
          950: { value: '#441106' },
        },
      },
    },
    semanticTokens: {
      colors: {
        brand: palette('brand', { solid: 700, fg: 700 }),
        accent: palette('accent', { solid: 700, fg: 800 }),
        // Chakra's green.600 under white text is 3.3:1; green.700 is 5:1 (Approve buttons).
        green: { solid: { value: '{colors.green.700}' } },
      },
    },
  },
});

let made: ReturnType<typeof createSystem> | undefined;

/**
 * The app's style system, made on first use: making it is a good part of the work a phone
 * does before the first screen (Chakra's tokens), so the app makes it in a task of its own
 * (src/app/start.tsx) rather than while its code is read.
 */
export const appSystem = () => (made ??= createSystem(defaultConfig, config));
