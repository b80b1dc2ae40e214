import type { DemoPicture, DemoPictureMotif } from './demo-picture-path.js';
import { mulberry32 } from './seeded-random.js';

type Scene = 'stage' | 'outdoor' | 'room';

/** Each motif's hue and kind of place, so a card's picture tells concert from market at a glance. */
const MOTIF_LOOKS: Record<DemoPictureMotif, { hue: number; scene: Scene }> = {
  concert: { hue: 265, scene: 'stage' },
  jazz: { hue: 220, scene: 'stage' },
  classical: { hue: 35, scene: 'stage' },
  theater: { hue: 350, scene: 'stage' },
  dance: { hue: 320, scene: 'stage' },
  movies: { hue: 240, scene: 'stage' },
  quiz: { hue: 45, scene: 'room' },
  debate: { hue: 200, scene: 'room' },
  festival: { hue: 15, scene: 'outdoor' },
  sport: { hue: 150, scene: 'outdoor' },
  market: { hue: 28, scene: 'outdoor' },
  guided_tour: { hue: 185, scene: 'outdoor' },
  family: { hue: 55, scene: 'room' },
  course: { hue: 95, scene: 'room' },
  literature: { hue: 20, scene: 'room' },
  food_drinks: { hue: 5, scene: 'room' },
  museum: { hue: 40, scene: 'room' },
  social: { hue: 170, scene: 'room' },
  games: { hue: 285, scene: 'room' },
  exhibition: { hue: 210, scene: 'room' },
  technology: { hue: 195, scene: 'stage' },
};


const hsl = (h: number, s: number, l: number) => `hsl(${Math.round(h) % 360} ${s}% ${l}%)`;
const n = (value: number) => String(Math.round(value));

function stage(w: number, h: number, hue: number, random: () => number): string {
  const floor = h * 0.78;
  const beams = Array.from({ length: 3 }, (_, i) => {
    const top = w * (0.2 + 0.3 * i + (random() - 0.5) * 0.12);
    const bottom = top + (random() - 0.5) * w * 0.3;
    const spread = w * 0.14;
    return `<polygon points="${n(top - w * 0.02)},0 ${n(top + w * 0.02)},0 ${n(bottom + spread)},${n(floor)} ${n(bottom - spread)},${n(floor)}" fill="${hsl(hue + 40, 90, 85)}" opacity=".16"/>`;
  }).join('');
  const lights = Array.from({ length: 7 }, () => `<circle cx="${n(random() * w)}" cy="${n(random() * h * 0.5)}" r="${n((0.01 + random() * 0.025) * Math.min(w, h) * 2)}" fill="${hsl(hue + 60, 90, 80)}" opacity=".25"/>`).join('');
  return (
    `<defs><linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${hsl(hue, 55, 14)}"/><stop offset="1" stop-color="${hsl(hue, 60, 30)}"/></linearGradient></defs>` +
    `<rect width="${w}" height="${h}" fill="url(#bg)"/>${lights}${beams}` +
    `<rect y="${n(floor)}" width="${w}" height="${n(h - floor)}" fill="${hsl(hue, 35, 20)}"/>`
  );
}

function outdoor(w: number, h: number, hue: number, random: () => number): string {
  const ridge = (base: number, rough: number, colour: string) => {
    const points = [`0,${h}`];
    const steps = 6;
    for (let i = 0; i <= steps; i += 1) points.push(`${n((w * i) / steps)},${n(h * (base - random() * rough))}`);
    points.push(`${w},${h}`);
    return `<polygon points="${points.join(' ')}" fill="${colour}"/>`;
  };
  return (
    `<defs><linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${hsl(hue + 190, 70, 72)}"/><stop offset="1" stop-color="${hsl(hue + 20, 80, 88)}"/></linearGradient></defs>` +
    `<rect width="${w}" height="${h}" fill="url(#bg)"/>` +
    `<circle cx="${n(w * (0.15 + random() * 0.7))}" cy="${n(h * (0.12 + random() * 0.2))}" r="${n(Math.min(w, h) * 0.08)}" fill="${hsl(hue + 20, 95, 70)}"/>` +
    ridge(0.55, 0.2, hsl(hue + 170, 25, 55)) +
    ridge(0.7, 0.12, hsl(hue, 45, 40)) +
    `<rect y="${n(h * 0.84)}" width="${w}" height="${n(h * 0.16)}" fill="${hsl(hue, 40, 30)}"/>`
  );
}

function room(w: number, h: number, hue: number, random: () => number): string {
  const side = Math.min(w, h);
  const floor = h * 0.78;
  // Pictures, shelves or windows along one wall line, sized by the short side so portraits look right too.
  const line = h * (0.22 + random() * 0.12);
  const count = Math.max(2, Math.round(w / side) + 1 + Math.floor(random() * 2));
  const frames = Array.from({ length: count }, (_, i) => {
    const fw = side * (0.18 + random() * 0.12);
    const fh = side * (0.16 + random() * 0.16);
    const x = (w * (i + 0.5)) / count - fw / 2 + (random() - 0.5) * side * 0.08;
    const y = line - fh / 2 + (random() - 0.5) * side * 0.06;
    return (
      `<rect x="${n(x)}" y="${n(y)}" width="${n(fw)}" height="${n(fh)}" rx="${n(side * 0.01)}" fill="${hsl(hue + 40 + i * 70, 60, 66)}" stroke="${hsl(hue, 35, 28)}" stroke-width="${n(Math.max(2, side * 0.012))}"/>`
    );
  }).join('');
  const lamps = Array.from({ length: 2 }, () => {
    const x = w * (0.1 + random() * 0.8);
    return `<circle cx="${n(x)}" cy="${n(h * 0.06)}" r="${n(side * 0.22)}" fill="${hsl(hue + 50, 100, 92)}" opacity=".35"/>`;
  }).join('');
  return (
    `<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${hsl(hue, 55, 86)}"/><stop offset="1" stop-color="${hsl(hue + 25, 50, 72)}"/></linearGradient></defs>` +
    `<rect width="${w}" height="${h}" fill="url(#bg)"/>${lamps}${frames}` +
    `<rect y="${n(floor)}" width="${w}" height="${n(h - floor)}" fill="${hsl(hue + 10, 35, 42)}"/>` +
    `<rect y="${n(floor)}" width="${w}" height="${n(side * 0.012)}" fill="${hsl(hue, 30, 30)}" opacity=".5"/>`
  );
}

/** Three people, their faces around (x, y): what the focus point is about. */
function people(x: number, y: number, unit: number, colour: string, halo: string): string {
  const person = (dx: number, dy: number, scale: number) => {
    const u = unit * scale;
    const cx = x + dx * unit;
    const cy = y + dy * unit;
    const head = `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(u * 0.34)}"/>`;
    const body = `<path d="M${n(cx - u * 0.6)} ${n(cy + u * 1.6)}v${n(-u * 0.7)}a${n(u * 0.6)} ${n(u * 0.55)} 0 0 1 ${n(u * 1.2)} 0v${n(u * 0.7)}z"/>`;
    return head + body;
  };
  return (
    // The halo is centred on the faces: the focus point, exactly (tests read it back).
    `<circle class="focus" cx="${n(x)}" cy="${n(y)}" r="${n(unit * 2)}" fill="${halo}" opacity=".55"/>` +
    `<g fill="${colour}">${person(-0.95, 0.15, 0.9)}${person(0.95, 0.1, 0.95)}${person(0, -0.05, 1.05)}</g>`
  );
}

/**
 * The SVG of one demo picture: scenery of the motif, and people whose faces are at the focus point
 * (none when the picture has no focus). Its intrinsic size is the one the path names, so the
 * `width`/`height` the data claims are what a browser reports.
 */
export function drawDemoPicture(picture: DemoPicture): string {
  const { width: w, height: h } = picture;
  const look = MOTIF_LOOKS[picture.motif];
  const random = mulberry32(picture.variant * 7919 + look.hue);
  const hue = look.hue + (random() - 0.5) * 24;
  const scenery = look.scene === 'stage' ? stage(w, h, hue, random) : look.scene === 'outdoor' ? outdoor(w, h, hue, random) : room(w, h, hue, random);
  const dark = look.scene === 'stage';
  const crowd =
    picture.focusX === null || picture.focusY === null
      ? ''
      : people((w * picture.focusX) / 100, (h * picture.focusY) / 100, Math.min(w, h) * 0.11, dark ? hsl(hue + 40, 80, 88) : hsl(hue, 45, 18), dark ? hsl(hue + 40, 90, 60) : '#fff');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">${scenery}${crowd}</svg>`;
}
