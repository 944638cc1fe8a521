import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { TestApp } from "./app.js";

export const PASSWORD = "Clave#Segura1";

/** A legacy POST with a JSON body. */
export const post = (app: TestApp, path: string, body: Record<string, unknown>) => app.legacy("POST", path, body);

export const uniqueEmail = (prefix = "user") => `${prefix}.${randomUUID().slice(0, 8)}@example.com`;

/** Registers through the legacy shim and returns the legacy user. */
export async function registerUser(app: TestApp, fields: Record<string, unknown> = {}) {
  const response = await app.legacy("POST", "/auth/register.php", {
    email: uniqueEmail(),
    password: PASSWORD,
    name: "Ana",
    lastName: "Restrepo",
    phone: "3001234567",
    ...fields,
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.user;
}

/** The code of the newest verification mail sent to `email`, read from the outbox. */
export async function latestCode(app: TestApp, email: string): Promise<string> {
  const mail = await app.db.outboxMail.findFirst({ where: { destinatario: email }, orderBy: { id: "desc" } });
  const code = mail?.cuerpo.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no verification mail for ${email}`);
  return code;
}

/** Row counts of every table a request might write to, to prove a failed request wrote nothing. */
export async function tableCounts(app: TestApp) {
  const db = app.db;
  return {
    users: await db.user.count(),
    locations: await db.userLocation.count(),
    profiles: await db.driverProfile.count(),
    codes: await db.emailVerification.count(),
    mails: await db.outboxMail.count(),
    notifications: await db.notification.count(),
  };
}
