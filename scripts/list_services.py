"""Lists the services a running server offers, through gRPC reflection (v1alpha).

Usage: python3 scripts/list_services.py [host:port]   (default 127.0.0.1:50051)
Needs the grpcio and grpcio-reflection packages.
"""

import sys

import grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc


def main() -> None:
    target = sys.argv[1] if len(sys.argv) > 1 else "127.0.0.1:50051"
    with grpc.insecure_channel(target) as channel:
        stub = reflection_pb2_grpc.ServerReflectionStub(channel)
        request = reflection_pb2.ServerReflectionRequest(list_services="")
        for response in stub.ServerReflectionInfo(iter([request]), timeout=10):
            for service in response.list_services_response.service:
                print(service.name)


if __name__ == "__main__":
    main()
