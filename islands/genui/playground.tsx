/** UI playground: to be written. */
export default function Page({ path }: { path: string }) {
  return <h1 data-path={path}>UI playground</h1>;
}
