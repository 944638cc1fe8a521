import { Suspense } from "react";
import { useSession } from "../auth/session";
import { Loading } from "../components/notice";
import { LoginPage } from "../pages/login/login-page";
import { Layout } from "./layout";
import { pageFor } from "./routes";
import { usePath } from "./router";

export function App() {
  const current = useSession();
  const path = usePath();
  if (!current) return <LoginPage />;
  return (
    <Layout>
      <Suspense fallback={<Loading />}>{pageFor(current.rol, path)}</Suspense>
    </Layout>
  );
}
