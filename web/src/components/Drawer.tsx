// A side drawer on a native modal <dialog>: it takes the focus, keeps it inside, closes on
// Escape or a click beside it, and gives the focus back when it closes.
import { useEffect, useRef, type ReactNode } from "react";

export interface DrawerProps {
  open: boolean;
  onClose: () => void;
  label: string;
  children: ReactNode;
}

export function Drawer({ open, onClose, label, children }: DrawerProps) {
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);

  return (
    <dialog
      ref={dialog}
      aria-label={label}
      onClose={onClose}
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
      className="m-0 h-full max-h-none w-72 max-w-[85%] bg-zinc-100 p-0 shadow-xl backdrop:bg-zinc-900/40"
    >
      {children}
    </dialog>
  );
}
