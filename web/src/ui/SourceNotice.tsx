import "./SourceNotice.css";

/**
 * Says why a page reads the chain although a game index is configured. The live region is always
 * there, so a screen reader hears the notice when it appears (and nothing when there is none);
 * it is a status, not an alert: the page still works, only slower.
 */
export function SourceNotice({ notice }: { notice: string | undefined }) {
  return (
    <div role="status" className="source-notice">
      {notice && <p className="source-notice__text">{notice}</p>}
    </div>
  );
}
