/**
 * The request target the service reads, from the one that came. Where LEGACY_PATH_PREFIX is set,
 * a path under it that the service serves once the prefix is taken away is served as that path:
 * the deployed app's development build calls `http://10.0.2.2/viax/backend/auth/login.php`, as its
 * PHP backend was deployed. Leading slashes run together count as one, since the app joins the
 * `/uploads/…` links it is given to its base with a slash of its own. Anything else is left as it came.
 */
export function legacyTarget(prefix: string | undefined, serves: (pathname: string) => boolean) {
  return (target: string): string => {
    const joined = target.replace(/^\/{2,}/, "/");
    if (!prefix || !joined.startsWith(`${prefix}/`) || serves(pathOf(joined))) return joined;
    const unprefixed = joined.slice(prefix.length).replace(/^\/{2,}/, "/");
    return serves(pathOf(unprefixed)) ? unprefixed : joined;
  };
}

const pathOf = (target: string) => target.split("?", 1)[0]!;
