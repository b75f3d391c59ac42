import { useEffect, useRef, type ReactNode } from "react";

const FOCUSABLE =
  'button:not([disabled]), a[href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A modal dialog. On open, focus moves to its first control, and back where it was on close; Tab
 * and Shift+Tab stay inside (it is aria-modal); Escape (or any of `closeKeys`) and a click outside
 * close it. Keys are caught before the page's own shortcuts, so a key that closes the dialog never
 * also acts on the table behind it.
 */
export function Modal({
  labelledBy,
  className,
  onClose,
  closeKeys = ["Escape"],
  children,
}: {
  labelledBy: string;
  className?: string;
  onClose: () => void;
  closeKeys?: readonly string[];
  children: ReactNode;
}) {
  const dialog = useRef<HTMLDivElement>(null);
  const keys = closeKeys.join("\n");

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    dialog.current?.querySelector<HTMLElement>(FOCUSABLE)?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (keys.split("\n").includes(event.key)) {
        event.preventDefault();
        event.stopPropagation();
        onClose();
        return;
      }
      const box = dialog.current;
      if (event.key !== "Tab" || !box) return;
      const controls = [...box.querySelectorAll<HTMLElement>(FOCUSABLE)];
      if (controls.length === 0) return;
      const first = controls[0];
      const last = controls[controls.length - 1];
      const active = document.activeElement;
      const outside = !box.contains(active);
      if (event.shiftKey && (active === first || outside)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (active === last || outside)) {
        event.preventDefault();
        first.focus();
      }
    };
    window.addEventListener("keydown", onKey, true);
    return () => {
      window.removeEventListener("keydown", onKey, true);
      previous?.focus?.();
    };
  }, [onClose, keys]);

  return (
    <div className="modal-backdrop" onClick={onClose}>
      <div
        ref={dialog}
        className={className ? `modal ${className}` : "modal"}
        role="dialog"
        aria-modal="true"
        aria-labelledby={labelledBy}
        onClick={(e) => e.stopPropagation()}
      >
        {children}
      </div>
    </div>
  );
}
