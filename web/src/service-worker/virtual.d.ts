/** The offline page's HTML, made from the catalogues when the app is built. */
declare module 'virtual:offline-page' {
  const html: string;
  export default html;
}
