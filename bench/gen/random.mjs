// A seeded pseudo-random source (sfc32, seeded through splitmix32): the same seed gives
// the same sequence on every machine and Node version. No Math.random anywhere in bench/.

/** Deterministic random numbers and the small helpers the generators draw with. */
export class Rng {
  constructor(seed) {
    let s = seed >>> 0;
    const splitmix = () => {
      s = (s + 0x9e3779b9) | 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = splitmix();
    this.b = splitmix();
    this.c = splitmix();
    this.d = splitmix();
    for (let i = 0; i < 15; i++) this.next();
  }

  /** A float in [0, 1). */
  next() {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** An integer in [lo, hi]. */
  int(lo, hi) {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  /** An integer in [lo, hi], skewed towards lo (the larger `power`, the more). */
  low(lo, hi, power) {
    return lo + Math.floor((hi - lo + 1) * Math.pow(this.next(), power));
  }

  chance(p) {
    return this.next() < p;
  }

  pick(list) {
    return list[Math.floor(this.next() * list.length)];
  }

  /** One of `[[weight, value], …]`; a function value is called. */
  weighted(table) {
    let total = 0;
    for (const [w] of table) total += w;
    let x = this.next() * total;
    for (const [w, v] of table) {
      x -= w;
      if (x < 0) return typeof v === 'function' ? v() : v;
    }
    const v = table[table.length - 1][1];
    return typeof v === 'function' ? v() : v;
  }

  /** `n` characters drawn from `alphabet`. */
  chars(n, alphabet) {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(this.next() * alphabet.length)];
    return s;
  }

  hex(n) {
    return this.chars(n, '0123456789abcdef');
  }

  uuid() {
    return `${this.hex(8)}-${this.hex(4)}-4${this.hex(3)}-${this.pick('89ab')}${this.hex(3)}-${this.hex(12)}`;
  }
}
