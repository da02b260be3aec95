/** A file's text, bundled by Vite (`import text from './file.css?raw'`): the frame's stylesheet for the inspection document. */
declare module '*?raw' {
  const text: string;
  export default text;
}
