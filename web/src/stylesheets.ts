// Every page's and component's stylesheet, for the first one the build makes (about 4 KB gzip
// more): a page drawn by the build is laid out with its own styles from the first paint, not moved
// when its code's stylesheet arrives. main.tsx imports styles.css first and this second, so the
// app's base rules come first and each component's own (`.player__head` over `.page__head`) after,
// as when they came with their pages. Each component still imports its own (its tests, the dev
// server).
import.meta.glob(["./**/*.css", "!./styles.css"], { eager: true });
