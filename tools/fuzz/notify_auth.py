"""Schemathesis hooks for the Notify API: every authentication scheme, on every operation.

Server-API operations get `Authorization: Bearer <NOTIFY_API_KEY>`, or with NOTIFY_AUTH=jwt the
bootstrap owner's JWT (`Bearer <NOTIFY_JWT>`) and, where the operation takes `envId`, the
environment's id in the query (NOTIFY_ENV_ID; a member must name it), so fuzzed requests reach the
handlers as a member. Browser-client operations (/{clientId}/users/{userId}/...) get
`Basic base64(clientId:userId:hashedUserId)`, computed for the generated userId with the
environment's current secret, so fuzzed user ids are authenticated and reach the handlers instead
of stopping at 401.
"""

import base64
import hashlib
import hmac
import os
import time

import requests
import schemathesis

API_KEY = os.environ["NOTIFY_API_KEY"]
BASE_URL = os.environ["NOTIFY_BASE_URL"]
AS_MEMBER = os.environ.get("NOTIFY_AUTH") == "jwt"
JWT = os.environ.get("NOTIFY_JWT", "")
ENV_ID = os.environ.get("NOTIFY_ENV_ID", "")


def takes_env_id(case):
    parameters = case.operation.definition.raw.get("parameters", [])
    return any(p.get("in") == "query" and p.get("name") == "envId" for p in parameters)


@schemathesis.auth(refresh_interval=1)
class NotifyAuth:
    last = None

    def get(self, case, ctx):
        # The environment's secret may change under the fuzzer (PATCH resetSecret): read it often.
        # Once the fuzzer has revoked the key itself (DELETE /keys, fuzzed last), the last known
        # secret stays in use and requests are answered 401, as documented.
        # The first read may meet a service still warming up (or a busy machine): it is tried a few
        # times before the fuzzer is told; later ones fall back to the last secret.
        attempts = 5 if NotifyAuth.last is None else 1
        problem = ""
        for attempt in range(attempts):
            try:
                response = requests.get(
                    f"{BASE_URL}/environments",
                    params={"envId": ENV_ID} if AS_MEMBER else {},
                    headers={"Authorization": f"Bearer {JWT if AS_MEMBER else API_KEY}"},
                    timeout=15,
                )
            except requests.RequestException as error:
                problem = f"GET /environments failed: {error}"
            else:
                if response.status_code == 200:
                    mine = [e for e in response.json() if e["clientId"] == ENV_ID] or response.json()
                    NotifyAuth.last = {"secret": mine[0]["clientSecret"]}
                    return NotifyAuth.last
                problem = f"GET /environments answered {response.status_code}: {response.text[:500]}"
            if attempt + 1 < attempts:
                time.sleep(1)
        if NotifyAuth.last is None:
            raise RuntimeError(problem)
        return NotifyAuth.last

    def set(self, case, data, ctx):
        case.headers = case.headers or {}
        user_id = (case.path_parameters or {}).get("userId")
        client_id = (case.path_parameters or {}).get("clientId")
        if case.operation.path.startswith("/{clientId}/users/") and isinstance(user_id, str):
            digest = hmac.new(data["secret"].encode(), user_id.encode(), hashlib.sha256).digest()
            hashed = base64.b64encode(digest).decode()
            token = base64.b64encode(f"{client_id}:{user_id}:{hashed}".encode()).decode()
            case.headers["Authorization"] = f"Basic {token}"
        elif AS_MEMBER:
            case.headers["Authorization"] = f"Bearer {JWT}"
            if takes_env_id(case):
                case.query = {**(case.query or {}), "envId": ENV_ID}
        else:
            case.headers["Authorization"] = f"Bearer {API_KEY}"
