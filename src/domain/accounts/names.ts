/**
 * The first word of a name: the rest may be a second name or a surname someone typed into the
 * first name. What others are shown of a person they do not know (a shared trip's page, a company,
 * a driver offered a request) is this and nothing more.
 */
export const firstName = (name: string | null | undefined) => name?.trim().split(/\s+/)[0] || null;
