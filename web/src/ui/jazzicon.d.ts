declare module "@metamask/jazzicon" {
  /** A round identicon `diameter` pixels wide, the same for the same seed. */
  export default function jazzicon(diameter: number, seed: number): HTMLDivElement;
}
