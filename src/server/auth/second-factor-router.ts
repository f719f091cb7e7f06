import { canUseSandboxPages } from "@/server/integrations/sandbox-access";
import { createTRPCRouter, protectedProcedure, secondFactorProcedure } from "@/server/trpc";
import { AppError } from "@/server/errors";
import { passkeyAuthenticationOptions, passkeyRegistrationOptions, registerPasskey, removePasskey, verifyPasskeySecondFactor } from "./passkeys";
import { confirmTotpSetup, demoTotpCode, factorsOf, removeTotp, renewRecoveryCodes, startTotpSetup, useRecoveryCode, verifyTotp } from "./second-factor";
import { passkeyAuthenticationInput, passkeyIdInput, passkeyRegistrationInput, recoveryCodeInput, totpCodeInput, type SecondFactorStatus } from "./second-factor-schemas";

/** Only for a session that still owes its second factor. */
function pendingOf<T>(pending: T | null): T {
  if (!pending) throw new AppError("CONFLICT", "Your sign-in is confirmed already.");
  return pending;
}

/**
 * The second factor (second-factor.ts, passkeys.ts): confirming a staff sign-in, and everyone's own passkeys and
 * authenticator app. Reachable by staff whose factor is not confirmed yet (secondFactorProcedure), which is all
 * such a session reaches.
 */
export const secondFactorRouter = createTRPCRouter({
  status: secondFactorProcedure.query(async ({ ctx }): Promise<SecondFactorStatus> => {
    const { user, pending } = ctx.signedIn;
    const factors = await factorsOf(ctx.db, user.id);
    const demoCode = pending && canUseSandboxPages(ctx.headers, null) ? await demoTotpCode(ctx.db, user) : null;
    return { email: user.email, pending: Boolean(pending), staff: user.role === "ADMIN", ...factors, demoCode };
  }),
  totpStart: secondFactorProcedure.mutation(({ ctx }) => startTotpSetup(ctx.db, ctx.signedIn)),
  totpConfirm: secondFactorProcedure.input(totpCodeInput).mutation(({ ctx, input }) => confirmTotpSetup(ctx.db, ctx.signedIn, input.code)),
  totpVerify: secondFactorProcedure.input(totpCodeInput).mutation(({ ctx, input }) => verifyTotp(ctx.db, pendingOf(ctx.signedIn.pending), input.code)),
  recoveryCodeVerify: secondFactorProcedure.input(recoveryCodeInput).mutation(({ ctx, input }) => useRecoveryCode(ctx.db, pendingOf(ctx.signedIn.pending), input.code)),
  passkeyRegistrationOptions: secondFactorProcedure.mutation(({ ctx }) => passkeyRegistrationOptions(ctx.db, ctx.signedIn)),
  passkeyRegister: secondFactorProcedure.input(passkeyRegistrationInput).mutation(({ ctx, input }) => registerPasskey(ctx.db, ctx.signedIn, input)),
  passkeyOptions: secondFactorProcedure.mutation(({ ctx }) => passkeyAuthenticationOptions(ctx.db, pendingOf(ctx.signedIn.pending).user)),
  passkeyVerify: secondFactorProcedure.input(passkeyAuthenticationInput).mutation(({ ctx, input }) => verifyPasskeySecondFactor(ctx.db, pendingOf(ctx.signedIn.pending), input)),
  // Changing one's factors takes a full sign-in.
  passkeyRemove: protectedProcedure.input(passkeyIdInput).mutation(({ ctx, input }) => removePasskey(ctx.db, ctx.session.user, input.id)),
  totpRemove: protectedProcedure.mutation(({ ctx }) => removeTotp(ctx.db, ctx.session.user)),
  recoveryCodesRenew: protectedProcedure.mutation(({ ctx }) => renewRecoveryCodes(ctx.db, ctx.session.user)),
});
