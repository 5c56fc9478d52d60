/** One extracted frame as the player's strip and its lightbox show it. */
export interface ViewerFrame {
  id: string;
  index: number;
  timestampS: number;
  isKeyFrame: boolean;
  cluster: number | null;
  url: string;
}
