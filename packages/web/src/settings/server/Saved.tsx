/** "Saved" after a successful save, announced to screen readers; `count` changes on every save. */
export function Saved({ count }: { count: number }) {
  return (
    <span className="ss-saved" role="status" key={count}>
      {count ? 'Saved' : ''}
    </span>
  );
}
