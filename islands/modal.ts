/** Modal `<dialog>` elements: shown while a component is, or while a signal says so. */
import type { Signal } from "@preact/signals";
import type { RefObject } from "preact";
import { useEffect, useRef } from "preact/hooks";

/**
 * A dialog shown as a modal while the component that holds it is mounted; when it goes, the
 * focus goes back to what had it before (the button that opened it), if that is still there.
 */
export function useModalWhileMounted(): RefObject<HTMLDialogElement | null> {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const opener = document.activeElement;
    const element = dialog.current!;
    element.showModal();
    return () => {
      if (element.open) element.close();
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    };
  }, []);
  return dialog;
}

/** A dialog shown as a modal while `open` is true (closing it by Escape sets `open` false). */
export function useModalWhileOpen(open: Signal<boolean>): RefObject<HTMLDialogElement | null> {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open.value && !element.open) element.showModal();
    if (!open.value && element.open) element.close();
  }, [open.value]);
  return dialog;
}
