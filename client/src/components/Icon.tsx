/*
 * Small inline SVG icons (drawn here, so no icon font or emoji is needed: headless and minimal
 * systems lack the glyphs). Decorative: the button around an icon carries the label.
 */
const PATHS = {
  first: 'M6 5h2v14H6zM9.5 12 18 5v14z',
  prev: 'M8 12l9-7v14z',
  next: 'M16 12 7 5v14z',
  last: 'M16 5h2v14h-2zM14.5 12 6 5v14z',
  soundOn: 'M4 9h4l5-4v14l-5-4H4zM16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12',
  soundOff: 'M4 9h4l5-4v14l-5-4H4zM16 9l6 6M22 9l-6 6',
  flip: 'M7 4v13M7 20l-3-3M7 20l3-3M17 20V7M17 4l-3 3M17 4l3 3',
  trophy: 'M7 3h10v4a5 5 0 0 1-10 0zM3 4h3v3.5A3 3 0 0 1 3 5zM21 4h-3v3.5A3 3 0 0 0 21 5zM11 12h2v4h-2zM7 17h10v3H7z',
  berserk: 'M13 2 4 14h7l-1 8 9-12h-7z',
  fire: 'M12 2c1 4 6 6 6 12a6 6 0 0 1-12 0c0-3 2-5 3-7 0 2 1 3 2 3 0-3-1-5 1-8z',
} as const;

export type IconName = keyof typeof PATHS;

const STROKED = new Set<IconName>(['soundOn', 'soundOff', 'flip']);

export function Icon({ name, size = 18 }: { name: IconName; size?: number }) {
  const stroked = STROKED.has(name);
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      aria-hidden="true"
      focusable="false"
      fill={stroked ? 'none' : 'currentColor'}
      stroke={stroked ? 'currentColor' : 'none'}
      strokeWidth={stroked ? 2 : 0}
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
