import { describe, expect, it } from "vitest";
import { assertPasswordPolicy } from "../../src/domain/accounts/password.js";
import { ValidationError } from "../../src/domain/errors.js";

const reasonFor = (password: string) => {
  try {
    assertPasswordPolicy(password);
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).reason;
  }
};

describe("password policy", () => {
  it("accepts a password with every kind of character", () => {
    expect(reasonFor("Clave#Segura1")).toBeNull();
    expect(reasonFor("Ñandú-2024x")).toBeNull();
  });

  it.each([
    ["Ab#1xyz", ["al menos 8 caracteres"]],
    ["clave#segura1", ["una letra mayúscula"]],
    ["CLAVE#SEGURA1", ["una letra minúscula"]],
    ["Clave#Segura", ["un dígito"]],
    ["ClaveSegura1", ["un carácter especial"]],
    ["abc", ["al menos 8 caracteres", "una letra mayúscula", "un dígito", "un carácter especial"]],
  ])("says what %s is missing", (password, missing) => {
    const reason = reasonFor(password)!;
    for (const requirement of missing) expect(reason).toContain(requirement);
    const all = ["al menos 8 caracteres", "una letra mayúscula", "una letra minúscula", "un dígito", "un carácter especial"];
    for (const requirement of all.filter((r) => !missing.includes(r))) expect(reason).not.toContain(requirement);
  });

  it("refuses passwords bcrypt would truncate", () => {
    expect(reasonFor(`Aa1#${"x".repeat(70)}`)).toContain("72 bytes");
  });
});
