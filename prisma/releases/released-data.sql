-- One row of every table, written as the last released version wrote them, against its schema
-- (the migrations up to `lastMigration` in released-schema.json). test/persistence/schema-upgrade.test.ts
-- applies those migrations, runs this, upgrades to the current schema and reads every row back
-- through the current code. Update it with the release record (prisma/releases/README.md).

-- A resource still live, not consumed, its table of two rows stored in one block.
-- Its resource_url token is releasedResourceToken_0123456789abcdefghijk (SHA-256 below).
INSERT INTO s2sp_resource (id, token_hash, tool_name, columns, abstract_domains, body_domains, row_count,
                           table_length, caller, caller_scopes, required_scopes, consumer, created_at, expires_at)
VALUES ('5f0c6f4e-1d1a-4c51-9a8e-2b7d6c3e9a01',
        'd2d1d8253744329d23e4659424556a846d0ed828d1380bf22e1633928cb46719',
        'get_alerts', '["event","severity","area","description"]', '["event","severity"]',
        '["area","description"]', 2, 184, 'alice', '["weather:read"]', '["weather:read"]', 'stats',
        '2026-11-27T10:00:00.000Z', '2100-01-01T00:00:00.000Z');
INSERT INTO s2sp_resource_chunk (resource_id, seq, data)
VALUES ('5f0c6f4e-1d1a-4c51-9a8e-2b7d6c3e9a01', 0,
        '{"rows":2,"columns":["event","severity","area","description"],"values":[["Wind Advisory","Flood Watch"],["Moderate","Severe"],["CA","CA"],["Gusts to 50 mph.","Heavy rain; it''s wet."]]}');

-- A finished task with one step.
INSERT INTO agent_task (id, status, agent_type, objective, constraints, plan, caller, deadline, result, error, usage,
                        trace_id, created_at, updated_at, completed_at)
VALUES ('8e2f4a10-7c3b-4d2e-b1a9-0c5d6e7f8a92', 'SUCCEEDED', 'declarative',
        '{"text":"Chart the wind alerts in CA"}', '{}', '{"steps":[{"step_id":"alerts","tool":"get_alerts"}]}',
        'alice', NULL, '{"chart":"wind.svg"}', NULL,
        '{"tokens_in_context":120,"tokens_kept_out":480,"tool_calls":2,"wall_time_ms":95,"data_plane_bytes":2048,"rows_in_context":2,"rows_kept_out":2}',
        '4bf92f3577b34da6a3ce929d0e0e4736', '2026-11-27T10:00:01.000Z', '2026-11-27T10:00:02.000Z',
        '2026-11-27T10:00:02.000Z');
INSERT INTO agent_task_step (task_id, step_number, result, created_at)
VALUES ('8e2f4a10-7c3b-4d2e-b1a9-0c5d6e7f8a92', 1, '{"step_id":"alerts","status":"STEP_STATUS_SUCCEEDED"}',
        '2026-11-27T10:00:02.000Z');

-- A completed idempotent call whose record has not expired.
INSERT INTO idempotency_record (key_hash, method, request_hash, state, response, created_at, expires_at)
VALUES ('0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9', 'agent.submitTask',
        'f9e8d7c6b5a4938271605f4e3d2c1b0af9e8d7c6b5a4938271605f4e3d2c1b0a', 'COMPLETED',
        '{"result":{"task_id":"8e2f4a10-7c3b-4d2e-b1a9-0c5d6e7f8a92"}}', '2026-11-27T10:00:00.000Z',
        '2100-01-01T00:00:00.000Z');

-- An authorization decision and a data-plane fetch.
INSERT INTO s2sp_audit_event (id, time, decision, outcome, authentication_failure, subject, delegated_by, client_id,
                              token_id, issuer, caller_scopes, protocol, service, operation, required_scopes,
                              missing_scopes, mutation_class, approval, trace_id, remote_address)
VALUES ('c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f', '2026-11-27T10:00:00.500Z', 'allow', 'allowed', NULL, 'alice',
        '["gateway"]', 'console', 'tok-1', 'https://auth.example', '["weather:read"]', 'mcp', 'weather-server',
        'tools/call get_alerts', '["weather:read"]', '[]', 'read', NULL, '4bf92f3577b34da6a3ce929d0e0e4736',
        '127.0.0.1');
INSERT INTO s2sp_data_fetch (id, time, resource_id, tool_name, subject, consumer, delegated_by, caller_scopes, result,
                             reason, rows, columns, bytes, trace_id)
VALUES ('d4e5f6a7-b8c9-4d0e-9f1a-2b3c4d5e6f70', '2026-11-27T10:00:01.500Z', '5f0c6f4e-1d1a-4c51-9a8e-2b7d6c3e9a01',
        'get_alerts', 'alice', 'stats', '["agents"]', '["weather:read"]', 'served', NULL, 2, 4, 184,
        '4bf92f3577b34da6a3ce929d0e0e4736');
