#!/usr/bin/env python3
"""Drives an MCP server through the official Python MCP SDK (the `mcp` package),
so the test suite talks to our servers with a client nobody here wrote.

Usage: python python_sdk_client.py <mcp_url> <bearer_token>
  stdin:  a JSON array of operations, run in order on one session:
          {"op": "list_tools"} or {"op": "call_tool", "name": ..., "arguments": {...}}
  stdout: a JSON array with one entry per operation: {"tools": [<name>, ...]} for
          list_tools, the tool result as the SDK parsed it (wire field names) for call_tool.
"""
import asyncio
import json
import sys

import httpx2
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client


async def run(url, token, operations):
    results = []
    async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=30) as http:
        async with streamable_http_client(url, http_client=http) as (read_stream, write_stream):
            async with ClientSession(read_stream, write_stream) as session:
                await session.initialize()
                for operation in operations:
                    if operation["op"] == "list_tools":
                        listed = await session.list_tools()
                        results.append({"tools": [tool.name for tool in listed.tools]})
                    elif operation["op"] == "call_tool":
                        result = await session.call_tool(operation["name"], operation["arguments"])
                        results.append(result.model_dump(mode="json", by_alias=True, exclude_none=True))
                    else:
                        raise ValueError(f"unknown operation {operation['op']!r}")
    return results


def main():
    url, token = sys.argv[1], sys.argv[2]
    operations = json.load(sys.stdin)
    json.dump(asyncio.run(run(url, token, operations)), sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
