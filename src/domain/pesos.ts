/** Whole pesos as Colombians write them: "$50.000", "-$3.000". */
export const formatPesos = (pesos: number) => `${pesos < 0 ? "-" : ""}$${Math.abs(pesos).toLocaleString("es-CO")}`;
