import { Box, Text } from 'ink';

interface TabItem {
  id: string;
  title: string;
}

/** `1 Accounts  2 Keys …` with the current screen inverse. */
export function Tabs(props: { tabs: readonly TabItem[]; active: string; width: number }): React.JSX.Element {
  return (
    <Box width={props.width}>
      <Text wrap="truncate-end">
        {props.tabs.map((tab, index) => (
          <Text key={tab.id}>
            {index > 0 ? ' ' : ''}
            <Text inverse={tab.id === props.active} bold={tab.id === props.active}>{` ${index + 1} ${tab.title} `}</Text>
          </Text>
        ))}
      </Text>
    </Box>
  );
}
