-- The webhook event `alignment.finished` (lib/webhooks): an alignment (lib/alignment) ended done or failed, written
-- by the database like the other events (see the migration `webhooks`).
CREATE FUNCTION webhook_alignment_run_status() RETURNS TRIGGER AS $$
BEGIN
  PERFORM webhook_emit(NEW."projectId", 'alignment.finished', NEW.id);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER webhook_alignment_run_status AFTER UPDATE OF status ON alignment_run
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status AND NEW.status IN ('done', 'failed'))
  EXECUTE FUNCTION webhook_alignment_run_status();
