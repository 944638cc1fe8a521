/** Label/value pairs, with a dash for the values not given. */
export function Facts({ items }: { items: [string, string | number | null | undefined][] }) {
  return (
    <dl className="definiciones">
      {items.map(([label, value]) => (
        <div key={label} className="definiciones__fila">
          <dt>{label}</dt>
          <dd>{value === null || value === undefined || value === "" ? "—" : value}</dd>
        </div>
      ))}
    </dl>
  );
}
