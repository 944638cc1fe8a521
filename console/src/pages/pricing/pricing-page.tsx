import { useMemo, useState } from "react";
import { useQuery } from "../../api/hooks";
import { success } from "../../api/result";
import { type Column, DataTable } from "../../components/data-table";
import { Loading, Notice } from "../../components/notice";
import { PageHeader } from "../../components/page-header";
import { date, percent, pesos } from "../../format";
import { TarifasDocument } from "../../gql/graphql";
import { labelOf, VEHICLE_TYPES } from "../../labels";
import { type RateForm, RateDialog } from "./rate-dialog";

type Row = RateForm & { actualizado_en: string; notas: string };

const percentOf = (fraction: number) => Math.round(fraction * 10_000) / 100;

export function PricingPage() {
  // Rates and commissions come from two fields of one query.
  const { data, error, loading, reload } = useQuery(TarifasDocument, {}, (result) => ({
    rates: success(result.pricingRates).data,
    sheets: success(result.pricingSheets).data,
  }));
  const [editing, setEditing] = useState<RateForm | null>(null);
  const [saved, setSaved] = useState<string | null>(null);

  const rows = useMemo<Row[]>(
    () =>
      (data?.rates ?? []).map((rate) => {
        const sheet = data?.sheets.find((s) => s.tipo_vehiculo === rate.tipo_vehiculo);
        return {
          ...rate,
          recargo_pico: percentOf(rate.recargo_pico),
          recargo_nocturno: percentOf(rate.recargo_nocturno),
          comision_plataforma: sheet?.comision_plataforma ?? 0,
          comision_metodo_pago: sheet?.comision_metodo_pago ?? 0,
          notas: sheet?.notas ?? "",
        };
      }),
    [data],
  );

  // The platform's rules read the same for every vehicle type today: each different text once.
  const notes = [...new Set(rows.map((row) => row.notas).filter(Boolean))];

  const columns: Column<Row>[] = [
    { header: "Vehículo", cell: (row) => <strong>{labelOf(VEHICLE_TYPES, row.tipo_vehiculo)}</strong> },
    { header: "Base", cell: (row) => pesos(row.tarifa_base), kind: "numero" },
    { header: "Por km", cell: (row) => pesos(row.precio_km), kind: "numero" },
    { header: "Por minuto", cell: (row) => pesos(row.precio_minuto), kind: "numero" },
    { header: "Mínima", cell: (row) => pesos(row.tarifa_minima), kind: "numero" },
    { header: "Hora pico", cell: (row) => `+${percent(row.recargo_pico)}`, kind: "numero" },
    { header: "Nocturno", cell: (row) => `+${percent(row.recargo_nocturno)}`, kind: "numero" },
    { header: "Comisión", cell: (row) => percent(row.comision_plataforma), kind: "numero" },
    { header: "Pago digital", cell: (row) => `+${percent(row.comision_metodo_pago)}`, kind: "numero" },
    { header: "Actualizada", cell: (row) => date(row.actualizado_en) },
    {
      header: "Acciones",
      kind: "acciones",
      cell: (row) => (
        <button type="button" className="boton boton--secundario boton--compacto" onClick={() => setEditing(row)}>
          Editar<span className="solo-lector"> tarifa de {labelOf(VEHICLE_TYPES, row.tipo_vehiculo)}</span>
        </button>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Tarifas y comisiones"
        description="Precios en pesos por tipo de vehículo. Los recargos se suman al precio del viaje; la comisión es lo que la plataforma retiene de cada viaje."
      />
      <Notice kind="exito">{saved}</Notice>
      <Notice kind="error">{error}</Notice>
      {!data && loading ? (
        <Loading />
      ) : (
        <DataTable
          caption="Tarifas por tipo de vehículo"
          columns={columns}
          rows={rows}
          rowKey={(row) => row.tipo_vehiculo}
          busy={loading}
        />
      )}
      {notes.length > 0 && (
        <section className="tarjeta">
          <h2>Lo que la plataforma aplica</h2>
          {notes.map((note) => (
            <p key={note}>{note}</p>
          ))}
        </section>
      )}
      <RateDialog
        rate={editing}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setSaved(`Tarifa de ${labelOf(VEHICLE_TYPES, editing?.tipo_vehiculo ?? "").toLowerCase()} guardada.`);
          setEditing(null);
          reload();
        }}
      />
    </>
  );
}
