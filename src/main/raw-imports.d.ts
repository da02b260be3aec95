/** A file's text, bundled by Vite (`import text from './file.js?raw'`): axe-core's source for the accessibility check. */
declare module '*?raw' {
  const text: string;
  export default text;
}
