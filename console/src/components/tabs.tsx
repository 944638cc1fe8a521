import { type KeyboardEvent, type ReactNode, useId } from "react";
import { number } from "../format";

export interface Tab {
  value: string;
  label: string;
  /** How many records the view holds, when known: shown beside its name. */
  count?: number;
}

/**
 * Views of one list (the ones waiting for an answer, all of them) as tabs over the panel that shows
 * the chosen one. The arrow keys, Home and End move between tabs, which a focused tab opens.
 */
export function Tabs({
  label,
  tabs,
  value,
  onChange,
  children,
}: {
  label: string;
  tabs: Tab[];
  value: string;
  onChange: (value: string) => void;
  children: ReactNode;
}) {
  const id = useId();
  const tabId = (tab: Tab) => `${id}-${tab.value || "todas"}`;
  const selected = tabs.find((tab) => tab.value === value) ?? tabs[0]!;

  function move(event: KeyboardEvent<HTMLDivElement>) {
    const at = tabs.indexOf(selected);
    const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    const next = tabs[(to + tabs.length) % tabs.length]!;
    onChange(next.value);
    document.getElementById(tabId(next))?.focus();
  }

  return (
    <>
      <div className="pestanas" role="tablist" aria-label={label} onKeyDown={move}>
        {tabs.map((tab) => (
          <button
            key={tab.value}
            id={tabId(tab)}
            type="button"
            role="tab"
            className="pestanas__pestana"
            aria-selected={tab === selected}
            aria-controls={`${id}-panel`}
            tabIndex={tab === selected ? 0 : -1}
            onClick={() => onChange(tab.value)}
          >
            {tab.label}
            {tab.count !== undefined && <span className="pestanas__cuenta">{number(tab.count)}</span>}
          </button>
        ))}
      </div>
      <div className="pestanas__panel" id={`${id}-panel`} role="tabpanel" aria-labelledby={tabId(selected)}>
        {children}
      </div>
    </>
  );
}
