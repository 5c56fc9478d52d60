-- The video list's path order is natural: "clip-2" before "clip-10" (plain text order gives -1, -10, -2).
-- video_path_sort_key pads every run of digits to 20 with leading zeros (runs longer than 20 digits are
-- kept whole, after every shorter number) and lowers the case, so plain text order of the key is natural
-- order of the path. The key compares in the "C" collation (byte order, the same in every locale). The list
-- (lib/videos/video-filter-sql.ts) sorts and pages on it; these indexes are its order, for the whole project
-- and for one model.
CREATE FUNCTION video_path_sort_key(path TEXT) RETURNS TEXT
  LANGUAGE SQL IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT regexp_replace(regexp_replace(lower(path), '([0-9]+)', '00000000000000000000\1', 'g'), '0*([0-9]{20})', '\1', 'g') $$;

CREATE INDEX "video_projectId_path_sort_key_id_idx" ON "video" ("projectId", (video_path_sort_key("relativePath") COLLATE "C"), "id");
CREATE INDEX "video_projectId_model_path_sort_key_id_idx" ON "video" ("projectId", "model", (video_path_sort_key("relativePath") COLLATE "C"), "id");
