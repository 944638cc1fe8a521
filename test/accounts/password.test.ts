import { describe, expect, it } from "vitest";
import { assertPasswordPolicy, type PasswordOwner } from "../../src/domain/accounts/password.js";
import { ValidationError } from "../../src/domain/errors.js";
import { DEMO_ADMIN, DEMO_COMPANY, DEMO_DRIVERS, DEMO_PASSENGERS, DEMO_PASSWORDS } from "../../src/demo/demo-data.js";

const ANA: PasswordOwner = { email: "ana.pasajera@demo.co", nombre: "Ana María", apellido: "Restrepo" };

const reasonFor = async (password: string, owner: PasswordOwner = ANA) => {
  try {
    await assertPasswordPolicy(password, owner);
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe("password");
    return (error as ValidationError).reason;
  }
};

/** Every refusal says how to choose a better one. */
const HOW = /usa una frase de tres o cuatro palabras poco comunes .* no hacen falta mayúsculas, números ni símbolos/;

describe("password policy (NIST SP 800-63B)", () => {
  it("asks no composition: passphrases of plain lower-case words are accepted, with or without spaces", async () => {
    for (const password of ["tigre azul saltando", "colibrí-nevado-trueno", "mi perro se llama toby", "ventana girasol cuaderno"]) {
      expect(await reasonFor(password), password).toBeNull();
    }
  });

  it("refuses fewer than 8 characters, counting characters rather than bytes, saying how to choose", async () => {
    expect(await reasonFor("ñandú12")).toMatch(/^debe tener al menos 8 caracteres; /);
    expect(await reasonFor("Ab#1xyz")).toMatch(HOW);
    expect(await reasonFor("ñandúñandú")).not.toMatch(/al menos 8/);
  });

  it("refuses passwords bcrypt would cut (over 72 bytes)", async () => {
    expect(await reasonFor(`${"ventana girasol cuaderno ".repeat(3)}`)).toMatch(/^admite como máximo 72 bytes/);
  });

  it.each([
    "Password1!",
    "password123",
    "12345678",
    "qwertyuiop",
    "contraseña",
    "Contraseña1",
    "P@ssw0rd",
    "aaaaaaaaaaaa",
    "abcdefgh",
    "medellin2024",
  ])("refuses %s: common, breached or guessable, saying so", async (password) => {
    const reason = await reasonFor(password);
    expect(reason).toMatch(/^es fácil de adivinar/);
    expect(reason).toMatch(HOW);
  });

  it.each(["ana.pasajera2024", "AnaPasajera2024!", "AnaRestrepo1990", "Restrepo#2024", "mariarestrepo", "ana.pasajera@demo.co"])(
    "refuses %s: built from the person's own name or e-mail",
    async (password) => {
      expect(await reasonFor(password)).toMatch(/^se parece demasiado a tu nombre o a tu correo, que otros conocen; /);
      // The same password is nobody's name for someone else.
      expect((await reasonFor(password, { email: "jorge@example.co", nombre: "Jorge", apellido: "Pérez" })) ?? "").not.toMatch(/tu nombre/);
    },
  );

  it("accepts the person's name as a small part of a longer passphrase", async () => {
    expect(await reasonFor("ana toma café con girasoles")).toBeNull();
  });

  it("accepts the demo accounts' passwords for their own accounts", async () => {
    const accounts: Array<[PasswordOwner, string]> = [
      [DEMO_ADMIN, DEMO_PASSWORDS.admin],
      [DEMO_COMPANY.gestor, DEMO_PASSWORDS.manager],
      ...DEMO_PASSENGERS.map((person): [PasswordOwner, string] => [person, DEMO_PASSWORDS.passenger]),
      ...DEMO_DRIVERS.map((person): [PasswordOwner, string] => [person, DEMO_PASSWORDS.driver]),
    ];
    for (const [owner, password] of accounts) expect(await reasonFor(password, owner), owner.email!).toBeNull();
  });
});
