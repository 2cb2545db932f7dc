/**
 * A badge that keeps its whole word in a narrow table column: Mantine cuts a badge's label with an ellipsis
 * ('Undecid…', 'Acti…'), which hid the decision and the status the column is there for (seen in the journey's
 * screenshots).
 */
export const WHOLE_WORD = { root: { maxWidth: 'none', flexShrink: 0 }, label: { overflow: 'visible' } } as const;
