// Replay: feed the transcript into <docstream-view> again, line by line, at the pace
// the format's timestamps say (`timestamp_ms`, `timestamp`) or at a fixed rate; pause;
// scrub (going back clears the view and pushes the lines up to the chosen point at once).

/** Longest pause taken from the timestamps, in milliseconds. */
const MAX_GAP = 2000;
/** Pause for a line without a timestamp of its own, and the fixed-rate step. */
const STEP = 100;

const STAMP = /"(timestamp_ms|timestamp|created_at|createdAt)"\s*:\s*("([^"]*)"|\d+(?:\.\d+)?)/;

/** The time a line carries, in milliseconds, or undefined. */
export function stampOf(line) {
  const m = STAMP.exec(line);
  if (!m) return undefined;
  if (m[3] !== undefined) {
    const t = Date.parse(m[3]);
    return Number.isNaN(t) ? undefined : t;
  }
  const n = Number(m[2]);
  // Seconds since the epoch, unless it is already milliseconds.
  return m[1] === 'timestamp_ms' || n > 1e11 ? n : n * 1000;
}

/** Splits text into lines, each keeping its line end. */
export function splitLines(text) {
  const lines = [];
  let at = 0;
  while (at < text.length) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl + 1;
    lines.push(text.slice(at, end));
    at = end;
  }
  return lines;
}

export class Replay {
  /**
   * `view`: the element; `onChange(state)` after every step, with
   * `{ position, length, playing, time }`.
   */
  constructor(view, onChange) {
    this.view = view;
    this.onChange = onChange;
    this.lines = [];
    this.schedule = { stamps: [], fixed: [] };
    this.timing = 'stamps';
    this.speed = 1;
    this.position = 0;
    this.playing = false;
    this.timer = 0;
  }

  /** Takes the transcript text; the view is assumed to show all of it. */
  setText(text) {
    this.pause();
    this.lines = splitLines(text);
    const stamps = [];
    let t = 0;
    let last;
    let stamped = 0;
    for (const line of this.lines) {
      const s = stampOf(line);
      if (s !== undefined) stamped++;
      if (s !== undefined && last !== undefined) t += Math.min(Math.max(s - last, 0), MAX_GAP);
      else t += STEP;
      if (s !== undefined) last = s;
      stamps.push(t);
    }
    this.hasStamps = stamped >= 2;
    this.schedule = { stamps, fixed: this.lines.map((_, i) => (i + 1) * STEP) };
    this.position = this.lines.length;
    this.finished = true;
    this.changed();
  }

  get length() {
    return this.lines.length;
  }

  times() {
    return this.timing === 'stamps' && this.hasStamps ? this.schedule.stamps : this.schedule.fixed;
  }

  /** Replay time of the current position, in milliseconds. */
  time() {
    return this.position ? this.times()[this.position - 1] : 0;
  }

  /** Shows the transcript up to line `position` (0 … length). */
  seek(position) {
    position = Math.max(0, Math.min(this.length, Math.round(position)));
    if (position === this.position) return this.changed();
    if (position < this.position || this.finished) {
      this.view.clear();
      this.position = 0;
      this.finished = false;
    }
    if (position > this.position) {
      this.view.push(this.lines.slice(this.position, position).join(''));
      this.position = position;
      // The element applies patches once per frame; a scrub shows its point at once.
      this.view.flush();
    }
    if (this.position === this.length) {
      this.view.finish();
      this.finished = true;
      this.pause();
    }
    this.changed();
  }

  play() {
    if (!this.length) return;
    if (this.position >= this.length) this.seek(0);
    this.playing = true;
    this.started = performance.now() - this.time() / this.speed;
    this.tick();
    this.changed();
  }

  pause() {
    clearTimeout(this.timer);
    this.timer = 0;
    if (this.playing) {
      this.playing = false;
      this.changed();
    }
  }

  toggle() {
    if (this.playing) this.pause();
    else this.play();
  }

  setSpeed(speed) {
    this.speed = speed;
    if (this.playing) this.started = performance.now() - this.time() / this.speed;
  }

  setTiming(timing) {
    this.timing = timing;
    if (this.playing) this.started = performance.now() - this.time() / this.speed;
    this.changed();
  }

  tick() {
    if (!this.playing) return;
    const now = (performance.now() - this.started) * this.speed;
    const times = this.times();
    let p = this.position;
    while (p < this.length && times[p] <= now) p++;
    if (p > this.position) this.seek(p);
    if (!this.playing) return;
    // Sleep until the next line is due (at least a frame, at most a quarter second).
    const due = (times[this.position] - now) / this.speed;
    this.timer = setTimeout(() => this.tick(), Math.max(16, Math.min(250, due)));
  }

  changed() {
    this.onChange?.({ position: this.position, length: this.length, playing: this.playing, time: this.time() });
  }
}
