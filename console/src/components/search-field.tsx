import { TextField } from "./fields";

/** The search box of a list; the list asks again once typing pauses. */
export function SearchField({ value, onChange, placeholder }: { value: string; onChange: (value: string) => void; placeholder: string }) {
  return (
    <TextField label="Buscar" type="search" placeholder={placeholder} value={value} onChange={(event) => onChange(event.target.value)} />
  );
}
